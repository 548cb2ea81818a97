/* Reference non-bonded terms: LJ + Ewald real-space Coulomb over non-excluded
 * pairs, the excluded-pair erf correction, the self term, the long-range
 * dispersion correction and the neutralising-plasma term. PME reciprocal space
 * is in ref_pme.c.
 *
 * Surprises:
 * - LJ is plainly truncated at the cutoff (no shift, no switch): the energy
 *   jumps when a pair crosses it, as in OpenMM with useSwitchingFunction off.
 * - Excluded pairs (1-2, 1-3 and 1-4) get -k q q erf(alpha r)/r at ANY
 *   distance, because the reciprocal sum includes them at every distance.
 *   OpenMM skips the correction when erf(alpha r) <= 1e-6 (coincident atoms);
 *   so do we, which also avoids 0/0. We use the minimum image; OpenMM 7.7 uses
 *   plain differences unless exceptions are marked periodic, and the two agree
 *   for whole molecules.
 * - The cell list needs at least 3 cells per edge for its 27-cell stencil to
 *   visit each neighbour cell once; thinner boxes (edge < 3 cutoffs) fall back
 *   to the O(N^2) search, which the minimum image keeps exact since every edge
 *   is at least 2 cutoffs (checked by vkmd_ff_settings_resolve).
 * - A triclinic box is searched by ghost images: every atom wrapped into the
 *   brick of vkmd_box_wrap_shift and each lattice image of it that falls
 *   within one cutoff of the brick, binned in a plain (non-periodic) cell
 *   list over the grown brick. As the cutoff is at most half the box's
 *   smallest width, at most one image of j lies within the cutoff of i, so
 *   each pair is found once; its force uses the minimum image like the
 *   O(N^2) path.
 * - The dispersion correction counts same-type pairs as n(n+1)/2 (self pairs
 *   included) and divides by N(N+1)/2, exactly as OpenMM; OpenMM groups atoms
 *   by (sigma, epsilon) rather than by type, which gives the same sum. */
#include "ref/ref.h"
#include "ref/ref_forms.h"

#include <math.h>
#include <stdlib.h>

/* Per-atom exclusion lists (both directions) in CSR form. */
typedef struct excl_csr {
    int32_t *start; /* [N + 1] */
    int32_t *list;  /* [2 * exclusion_count] */
} excl_csr;

static vkmd_result excl_csr_build(const vkmd_system *sys, excl_csr *out)
{
    const int32_t n = sys->atom_count;
    out->start = calloc((size_t)n + 1, sizeof *out->start);
    out->list = malloc(sizeof *out->list * (2 * (size_t)sys->exclusion_count + 1));
    int32_t *fill = calloc((size_t)n + 1, sizeof *fill);
    if (!out->start || !out->list || !fill) {
        free(out->start);
        free(out->list);
        free(fill);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "reference non-bonded: exclusion lists");
    }
    for (int32_t e = 0; e < sys->exclusion_count; ++e) {
        ++out->start[sys->exclusions[e].i + 1];
        ++out->start[sys->exclusions[e].j + 1];
    }
    for (int32_t a = 0; a < n; ++a)
        out->start[a + 1] += out->start[a];
    for (int32_t e = 0; e < sys->exclusion_count; ++e) {
        int32_t i = sys->exclusions[e].i, j = sys->exclusions[e].j;
        out->list[out->start[i] + fill[i]++] = j;
        out->list[out->start[j] + fill[j]++] = i;
    }
    free(fill);
    return VKMD_OK;
}

static void excl_csr_free(excl_csr *c)
{
    free(c->start);
    free(c->list);
}

/* Shared state of one pair sweep. */
typedef struct pair_ctx {
    const vkmd_system *sys;
    double coulomb_k, alpha, cutoff2;
    int periodic;
    double *f;
    double e_lj, e_coul;
} pair_ctx;

static void pair_eval(pair_ctx *c, int32_t i, int32_t j)
{
    const vkmd_system *sys = c->sys;
    double d[3];
    ref_delta(&sys->box, &sys->positions[3 * i], &sys->positions[3 * j], d); /* r_j - r_i */
    double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (c->periodic && r2 >= c->cutoff2)
        return;
    const vkmd_atom *ai = &sys->atoms[i], *aj = &sys->atoms[j];
    int32_t t = ai->lj_type * sys->lj_type_count + aj->lj_type;
    double inv_r2 = 1.0 / r2, inv_r = sqrt(inv_r2), r = r2 * inv_r;
    double kqq = c->coulomb_k * ai->charge * aj->charge;
    double f_lj, f_coul;
    c->e_lj += form_lj(inv_r2, sys->lj_a[t], sys->lj_b[t], &f_lj);
    if (c->periodic)
        c->e_coul += form_coulomb_erfc(r, inv_r, kqq, c->alpha, &f_coul);
    else
        c->e_coul += form_coulomb(inv_r, kqq, &f_coul);
    if (c->f) {
        double s = f_lj + f_coul;
        for (int k = 0; k < 3; ++k) {
            c->f[3 * i + k] -= s * d[k];
            c->f[3 * j + k] += s * d[k];
        }
    }
}

static pair_ctx pair_ctx_make(const vkmd_system *sys, const vkmd_ff_settings *s, double coulomb_k,
                              double *f)
{
    pair_ctx c = {sys, coulomb_k, s->ewald_alpha, s->cutoff_a * s->cutoff_a, sys->box.periodic, f,
                  0,   0};
    return c;
}

vkmd_result ref_nonbonded_pairs_n2(const vkmd_system *sys, const vkmd_ff_settings *s,
                                   double coulomb_k, double *f, double *out_lj, double *out_coulomb)
{
    excl_csr ex;
    vkmd_result res = excl_csr_build(sys, &ex);
    if (res != VKMD_OK)
        return res;
    const int32_t n = sys->atom_count;
    int32_t *stamp = malloc(sizeof *stamp * ((size_t)n + 1));
    if (!stamp) {
        excl_csr_free(&ex);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "reference non-bonded: %d atoms", n);
    }
    for (int32_t a = 0; a < n; ++a)
        stamp[a] = -1;
    pair_ctx c = pair_ctx_make(sys, s, coulomb_k, f);
    for (int32_t i = 0; i < n; ++i) {
        for (int32_t e = ex.start[i]; e < ex.start[i + 1]; ++e)
            stamp[ex.list[e]] = i;
        for (int32_t j = i + 1; j < n; ++j)
            if (stamp[j] != i)
                pair_eval(&c, i, j);
    }
    free(stamp);
    excl_csr_free(&ex);
    *out_lj = c.e_lj;
    *out_coulomb = c.e_coul;
    return VKMD_OK;
}

/* Pair search of a triclinic box through ghost images (header comment). */
static vkmd_result pairs_triclinic(const vkmd_system *sys, const vkmd_ff_settings *s,
                                   double coulomb_k, double *f, double *out_lj, double *out_coulomb)
{
    const int32_t n = sys->atom_count;
    const double rc = s->cutoff_a, (*v)[3] = sys->box.vec;
    const double lo[3] = {-rc, -rc, -rc};
    const double hi[3] = {v[0][0] + rc, v[1][1] + rc, v[2][2] + rc};
    int nc[3];
    for (int d = 0; d < 3; ++d) {
        nc[d] = (int)floor((hi[d] - lo[d]) / rc);
        if (nc[d] < 1)
            nc[d] = 1;
    }
    const int32_t ncell = nc[0] * nc[1] * nc[2];
    excl_csr ex = {NULL, NULL};
    size_t cap = 4 * (size_t)n + 16, count = 0;
    double *gx = malloc(sizeof *gx * 3 * cap);
    int32_t *gatom = malloc(sizeof *gatom * cap), *gcell = malloc(sizeof *gcell * cap);
    int32_t *cell_start = calloc((size_t)ncell + 1, sizeof *cell_start);
    int32_t *cell_items = NULL, *fill = calloc((size_t)ncell, sizeof *fill);
    int32_t *home = malloc(sizeof *home * ((size_t)n + 1));
    int32_t *stamp = malloc(sizeof *stamp * ((size_t)n + 1));
    vkmd_result res = VKMD_OK;
    if (!gx || !gatom || !gcell || !cell_start || !fill || !home || !stamp) {
        res =
            vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "reference non-bonded: ghost cells (%d atoms)", n);
        goto cleanup;
    }
    VKMD_TRY(excl_csr_build(sys, &ex));

    /* Images of every atom within the grown brick; the atom's own wrapped
     * position is its home. Reduced vectors need shifts of at most 3. */
    for (int32_t a = 0; a < n; ++a) {
        const double *x = &sys->positions[3 * a];
        double w[3], sh[3];
        vkmd_box_wrap_shift(&sys->box, x, sh);
        for (int d = 0; d < 3; ++d)
            w[d] = x[d] + sh[d];
        home[a] = -1;
        stamp[a] = -1;
        for (int i = -3; i <= 3; ++i)
            for (int j = -3; j <= 3; ++j)
                for (int k = -3; k <= 3; ++k) {
                    double p[3];
                    int in = 1, idx[3];
                    for (int d = 0; d < 3; ++d) {
                        p[d] = w[d] + i * v[0][d] + j * v[1][d] + k * v[2][d];
                        in &= p[d] >= lo[d] && p[d] < hi[d];
                    }
                    if (!in)
                        continue;
                    if (count == cap) {
                        cap *= 2;
                        double *nx = realloc(gx, sizeof *gx * 3 * cap);
                        if (nx)
                            gx = nx;
                        int32_t *na = realloc(gatom, sizeof *gatom * cap);
                        if (na)
                            gatom = na;
                        int32_t *ncl = realloc(gcell, sizeof *gcell * cap);
                        if (ncl)
                            gcell = ncl;
                        if (!nx || !na || !ncl) {
                            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY,
                                            "reference non-bonded: %zu ghost images", cap);
                            goto cleanup;
                        }
                    }
                    for (int d = 0; d < 3; ++d) {
                        gx[3 * count + d] = p[d];
                        idx[d] = (int)((p[d] - lo[d]) / (hi[d] - lo[d]) * nc[d]);
                        if (idx[d] >= nc[d])
                            idx[d] = nc[d] - 1;
                    }
                    gatom[count] = a;
                    gcell[count] = (idx[0] * nc[1] + idx[1]) * nc[2] + idx[2];
                    ++cell_start[gcell[count] + 1];
                    if (i == 0 && j == 0 && k == 0)
                        home[a] = (int32_t)count;
                    ++count;
                }
        if (home[a] < 0) { /* cannot happen: the wrapped point is in the brick */
            res = vkmd_fail(VKMD_ERROR_NUMERIC,
                            "reference non-bonded: atom %d does not wrap into the box", a + 1);
            goto cleanup;
        }
    }
    for (int32_t c = 0; c < ncell; ++c)
        cell_start[c + 1] += cell_start[c];
    cell_items = malloc(sizeof *cell_items * (count + 1));
    if (!cell_items) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "reference non-bonded: %zu ghost images", count);
        goto cleanup;
    }
    for (size_t g = 0; g < count; ++g)
        cell_items[cell_start[gcell[g]] + fill[gcell[g]]++] = (int32_t)g;

    const double c2 = rc * rc;
    pair_ctx c = pair_ctx_make(sys, s, coulomb_k, f);
    for (int32_t i = 0; i < n; ++i) {
        for (int32_t e = ex.start[i]; e < ex.start[i + 1]; ++e)
            stamp[ex.list[e]] = i;
        const int32_t hc = gcell[home[i]];
        const double *xi = &gx[3 * (size_t)home[i]];
        const int ci[3] = {hc / (nc[1] * nc[2]), (hc / nc[2]) % nc[1], hc % nc[2]};
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dz = -1; dz <= 1; ++dz) {
                    const int cx = ci[0] + dx, cy = ci[1] + dy, cz = ci[2] + dz;
                    if (cx < 0 || cy < 0 || cz < 0 || cx >= nc[0] || cy >= nc[1] || cz >= nc[2])
                        continue;
                    const int32_t cell = (cx * nc[1] + cy) * nc[2] + cz;
                    for (int32_t m = cell_start[cell]; m < cell_start[cell + 1]; ++m) {
                        const int32_t g = cell_items[m], j = gatom[g];
                        if (j <= i || stamp[j] == i)
                            continue;
                        const double *xj = &gx[3 * (size_t)g];
                        const double d[3] = {xj[0] - xi[0], xj[1] - xi[1], xj[2] - xi[2]};
                        if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < c2)
                            pair_eval(&c, i, j);
                    }
                }
    }
    *out_lj = c.e_lj;
    *out_coulomb = c.e_coul;

cleanup:
    excl_csr_free(&ex);
    free(gx);
    free(gatom);
    free(gcell);
    free(cell_start);
    free(cell_items);
    free(fill);
    free(home);
    free(stamp);
    return res;
}

vkmd_result ref_nonbonded_pairs(const vkmd_system *sys, const vkmd_ff_settings *s, double coulomb_k,
                                double *f, double *out_lj, double *out_coulomb)
{
    if (sys->box.periodic && sys->box.triclinic)
        return pairs_triclinic(sys, s, coulomb_k, f, out_lj, out_coulomb);
    int nc[3] = {0, 0, 0};
    if (sys->box.periodic)
        for (int d = 0; d < 3; ++d)
            nc[d] = (int)floor(sys->box.len[d] / s->cutoff_a);
    if (!sys->box.periodic || nc[0] < 3 || nc[1] < 3 || nc[2] < 3)
        return ref_nonbonded_pairs_n2(sys, s, coulomb_k, f, out_lj, out_coulomb);

    const int32_t n = sys->atom_count;
    const int32_t ncell = nc[0] * nc[1] * nc[2];
    excl_csr ex = {NULL, NULL};
    int32_t *cell_of = malloc(sizeof *cell_of * (size_t)n);
    int32_t *cell_start = calloc((size_t)ncell + 1, sizeof *cell_start);
    int32_t *cell_atoms = malloc(sizeof *cell_atoms * (size_t)n);
    int32_t *fill = calloc((size_t)ncell, sizeof *fill);
    int32_t *stamp = malloc(sizeof *stamp * (size_t)n);
    vkmd_result res = VKMD_OK;
    if (!cell_of || !cell_start || !cell_atoms || !fill || !stamp) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "reference non-bonded: cell list (%d atoms)", n);
        goto cleanup;
    }
    VKMD_TRY(excl_csr_build(sys, &ex));

    /* Counting sort of atoms into cells of the wrapped coordinates. */
    for (int32_t a = 0; a < n; ++a) {
        int idx[3];
        for (int d = 0; d < 3; ++d) {
            double u = sys->positions[3 * a + d] / sys->box.len[d];
            u -= floor(u);
            idx[d] = (int)(u * nc[d]);
            if (idx[d] >= nc[d]) /* u rounds up to exactly 1 */
                idx[d] = nc[d] - 1;
        }
        cell_of[a] = (idx[0] * nc[1] + idx[1]) * nc[2] + idx[2];
        ++cell_start[cell_of[a] + 1];
        stamp[a] = -1;
    }
    for (int32_t k = 0; k < ncell; ++k)
        cell_start[k + 1] += cell_start[k];
    for (int32_t a = 0; a < n; ++a)
        cell_atoms[cell_start[cell_of[a]] + fill[cell_of[a]]++] = a;

    pair_ctx c = pair_ctx_make(sys, s, coulomb_k, f);
    for (int32_t i = 0; i < n; ++i) {
        for (int32_t e = ex.start[i]; e < ex.start[i + 1]; ++e)
            stamp[ex.list[e]] = i;
        int ci[3] = {cell_of[i] / (nc[1] * nc[2]), (cell_of[i] / nc[2]) % nc[1],
                     cell_of[i] % nc[2]};
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dz = -1; dz <= 1; ++dz) {
                    int cx = (ci[0] + dx + nc[0]) % nc[0];
                    int cy = (ci[1] + dy + nc[1]) % nc[1];
                    int cz = (ci[2] + dz + nc[2]) % nc[2];
                    int32_t cell = (cx * nc[1] + cy) * nc[2] + cz;
                    for (int32_t m = cell_start[cell]; m < cell_start[cell + 1]; ++m) {
                        int32_t j = cell_atoms[m];
                        if (j > i && stamp[j] != i)
                            pair_eval(&c, i, j);
                    }
                }
    }
    *out_lj = c.e_lj;
    *out_coulomb = c.e_coul;

cleanup:
    excl_csr_free(&ex);
    free(cell_of);
    free(cell_start);
    free(cell_atoms);
    free(fill);
    free(stamp);
    return res;
}

double ref_nonbonded_excluded(const vkmd_system *sys, double alpha, double coulomb_k, double *f)
{
    double energy = 0;
    for (int32_t e = 0; e < sys->exclusion_count; ++e) {
        int32_t i = sys->exclusions[e].i, j = sys->exclusions[e].j;
        double d[3];
        ref_delta(&sys->box, &sys->positions[3 * i], &sys->positions[3 * j], d);
        double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!(erf(alpha * r) > 1e-6))
            continue;
        double kqq = coulomb_k * sys->atoms[i].charge * sys->atoms[j].charge;
        double f_over_r;
        energy += form_coulomb_excl(r, 1.0 / r, kqq, alpha, &f_over_r);
        if (f)
            for (int k = 0; k < 3; ++k) {
                f[3 * i + k] -= f_over_r * d[k];
                f[3 * j + k] += f_over_r * d[k];
            }
    }
    return energy;
}
