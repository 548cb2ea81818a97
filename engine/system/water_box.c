/* Built-in TIP3P water box (see water_box.h).
 *
 * Each molecule's H-H midpoint (the centre of the smallest sphere holding
 * it, radius 0.757 A) sits on a lattice site. Orientations are drawn at
 * random (with a shift of up to 0.25 A per axis), then "min-conflicts" sweeps
 * re-draw the orientation and shift of every molecule that still clashes, keeping the draw with the
 * fewest clashes; a purely sequential placement gets stuck when the last molecules of a dense
 * region find their neighbours fixed. A cell grid over the sites keeps each
 * check local, so building is linear in N. */
#include "system/water_box.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WATER_MASS_AMU      18.01528
#define AMU_PER_A3_IN_G_CM3 1.66053907
#define TIP3P_QO            (-0.834)
#define TIP3P_QH            0.417
#define TIP3P_MASS_O        15.99943
#define TIP3P_MASS_H        1.007947
#define TIP3P_SIGMA_O_A     3.1507524065751241 /* 2 * 1.7683 / 2^(1/6) */
#define TIP3P_EPS_O         0.1520             /* kcal/mol (0.635968 kJ/mol) */
#define TIP3P_BOND_K        553.0
#define TIP3P_BOND_R0       0.9572
#define TIP3P_ANGLE_K       100.0
#define TIP3P_ANGLE_DEG     104.52
#define MAX_SWEEPS          2000
#define TRIES_PER_SWEEP     20
#define JITTER_A            0.25 /* A, per axis: room to step away from crowded sites */

static const double pi = 3.14159265358979323846;

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform01(uint64_t *state)
{
    return (double)(splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform random rotation (Shoemake's quaternion method) as a 3x3 matrix. */
static void random_rotation(uint64_t *state, double r[9])
{
    double u1 = uniform01(state), u2 = uniform01(state), u3 = uniform01(state);
    double a = sqrt(1 - u1), b = sqrt(u1);
    double x = a * sin(2 * pi * u2), y = a * cos(2 * pi * u2);
    double z = b * sin(2 * pi * u3), w = b * cos(2 * pi * u3);
    r[0] = 1 - 2 * (y * y + z * z);
    r[1] = 2 * (x * y - z * w);
    r[2] = 2 * (x * z + y * w);
    r[3] = 2 * (x * y + z * w);
    r[4] = 1 - 2 * (x * x + z * z);
    r[5] = 2 * (y * z - x * w);
    r[6] = 2 * (x * z - y * w);
    r[7] = 2 * (y * z + x * w);
    r[8] = 1 - 2 * (x * x + y * y);
}

static double min_image_dist2(const double *a, const double *b, double len)
{
    double s = 0;
    for (int k = 0; k < 3; ++k) {
        double d = b[k] - a[k];
        d -= len * nearbyint(d / len);
        s += d * d;
    }
    return s;
}

/* 1 if any atom of molecule m (positions x[9*m..]) is closer than the limit to
 * an atom of molecule o. */
static int molecules_clash(const double *x, int32_t m, int32_t o, double len)
{
    const double lim2 = VKMD_WATER_BOX_MIN_CONTACT_A * VKMD_WATER_BOX_MIN_CONTACT_A;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            if (min_image_dist2(&x[9 * m + 3 * i], &x[9 * o + 3 * j], len) < lim2)
                return 1;
    return 0;
}

typedef struct grid {
    const int32_t *head, *next;
    const int64_t *cellof;
    int32_t nc;
} grid;

/* Writes molecule atoms = site + shift + R * local for a fresh random rotation
 * R and a random shift of at most JITTER_A per axis. */
static void orient(uint64_t *rng, const double local[3][3], const double *site, double *x)
{
    double r[9], c[3];
    random_rotation(rng, r);
    for (int k = 0; k < 3; ++k)
        c[k] = site[k] + JITTER_A * (2 * uniform01(rng) - 1);
    for (int a = 0; a < 3; ++a)
        for (int k = 0; k < 3; ++k)
            x[3 * a + k] = c[k] + r[3 * k] * local[a][0] + r[3 * k + 1] * local[a][1] +
                           r[3 * k + 2] * local[a][2];
}

/* Molecules that clash with molecule i; stops counting at `stop`. */
static int32_t count_clashes(const grid *g, const double *x, int32_t i, double len, int32_t stop)
{
    int32_t count = 0;
    const int32_t nc = g->nc;
    if (nc == 1) {
        for (int32_t j = g->head[0]; j >= 0 && count < stop; j = g->next[j])
            count += j != i && molecules_clash(x, i, j, len);
        return count;
    }
    const int64_t c = g->cellof[i];
    const int32_t cx = (int32_t)(c % nc), cy = (int32_t)((c / nc) % nc),
                  cz = (int32_t)(c / nc / nc);
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                int64_t cc = (((int64_t)(cz + dz + nc) % nc) * nc + (cy + dy + nc) % nc) * nc +
                             (cx + dx + nc) % nc;
                for (int32_t j = g->head[cc]; j >= 0; j = g->next[j]) {
                    count += j != i && molecules_clash(x, i, j, len);
                    if (count >= stop)
                        return count;
                }
            }
    return count;
}

typedef struct lattice {
    int basis;
    double frac[4][3];
    double nn_factor; /* nearest-neighbour distance / cell edge */
} lattice;

static const lattice lattices[3] = {
    {1, {{0, 0, 0}}, 1.0},                                  /* simple cubic */
    {2, {{0, 0, 0}, {0.5, 0.5, 0.5}}, 0.86602540378443865}, /* bcc */
    {4, {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}}, 0.70710678118654752}, /* fcc */
};

double vkmd_water_box_edge_a(int32_t n_waters)
{
    const double rho = VKMD_WATER_BOX_DENSITY_G_CM3 / AMU_PER_A3_IN_G_CM3; /* amu/A^3 */
    return cbrt(n_waters * WATER_MASS_AMU / rho);
}

vkmd_result vkmd_water_box_topology(int32_t n, vkmd_system *s)
{
    const int32_t na = 3 * n;
    s->atom_count = na;
    s->atoms = calloc((size_t)na, sizeof *s->atoms);
    s->lj_type_count = 2;
    s->lj_a = calloc(4, sizeof *s->lj_a);
    s->lj_b = calloc(4, sizeof *s->lj_b);
    s->bond_count = 2 * n;
    s->bonds = calloc((size_t)s->bond_count, sizeof *s->bonds);
    s->angle_count = n;
    s->angles = calloc((size_t)n, sizeof *s->angles);
    s->exclusion_count = 3 * n;
    s->exclusions = calloc((size_t)s->exclusion_count, sizeof *s->exclusions);
    s->water_count = n;
    s->waters = calloc((size_t)n, sizeof *s->waters);
    s->positions = calloc((size_t)na * 3, sizeof *s->positions);
    if (!s->atoms || !s->lj_a || !s->lj_b || !s->bonds || !s->angles || !s->exclusions ||
        !s->waters || !s->positions)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "water:%d: out of memory", n);
    const double s6 = pow(TIP3P_SIGMA_O_A, 6);
    s->lj_a[0] = 4 * TIP3P_EPS_O * s6 * s6;
    s->lj_b[0] = 4 * TIP3P_EPS_O * s6;
    for (int32_t m = 0; m < n; ++m) {
        const int32_t o = 3 * m;
        for (int k = 0; k < 3; ++k) {
            vkmd_atom *at = &s->atoms[o + k];
            snprintf(at->name, sizeof at->name, "%s", k == 0 ? "O" : k == 1 ? "H1" : "H2");
            snprintf(at->type_name, sizeof at->type_name, "%s", k == 0 ? "OW" : "HW");
            snprintf(at->res_name, sizeof at->res_name, "WAT");
            at->res_index = m;
            at->element = k == 0 ? 8 : 1;
            at->charge = k == 0 ? TIP3P_QO : TIP3P_QH;
            at->mass = k == 0 ? TIP3P_MASS_O : TIP3P_MASS_H;
            at->lj_type = k == 0 ? 0 : 1;
        }
        s->bonds[2 * m] = (vkmd_bond){o, o + 1, TIP3P_BOND_K, TIP3P_BOND_R0};
        s->bonds[2 * m + 1] = (vkmd_bond){o, o + 2, TIP3P_BOND_K, TIP3P_BOND_R0};
        s->angles[m] = (vkmd_angle){o + 1, o, o + 2, TIP3P_ANGLE_K, TIP3P_ANGLE_DEG * pi / 180};
        s->exclusions[3 * m] = (vkmd_pair){o, o + 1};
        s->exclusions[3 * m + 1] = (vkmd_pair){o, o + 2};
        s->exclusions[3 * m + 2] = (vkmd_pair){o + 1, o + 2};
        s->waters[m] = (vkmd_water){o, o + 1, o + 2};
    }
    return VKMD_OK;
}

vkmd_result vkmd_water_box_build(int32_t n_waters, uint64_t seed, vkmd_system *out)
{
    memset(out, 0, sizeof *out);
    if (n_waters < 1 || n_waters > VKMD_WATER_BOX_MAX_WATERS)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "water:%d: the number of waters must be 1..%d", n_waters,
                         VKMD_WATER_BOX_MAX_WATERS);
    const int32_t n = n_waters;
    vkmd_system s = {0};
    int32_t *head = NULL, *next = NULL;
    int64_t *cellof = NULL;
    double *centre = NULL;
    vkmd_result res = vkmd_water_box_topology(n, &s);
    if (res != VKMD_OK)
        goto cleanup;
    snprintf(s.title, sizeof s.title, "water:%d (TIP3P, 0.997 g/cm^3, seed %llu)", n,
             (unsigned long long)seed);

    const double len = vkmd_water_box_edge_a(n);
    vkmd_box_set_rect(&s.box, (const double[3]){len, len, len});

    /* The lattice with the largest nearest-neighbour distance. */
    int best_lat = 0;
    int64_t best_m = 1;
    double best_nn = -1;
    for (int k = 0; k < 3; ++k) {
        int64_t m = 1;
        while ((int64_t)lattices[k].basis * m * m * m < n)
            ++m;
        double nn = len / (double)m * lattices[k].nn_factor;
        if (nn > best_nn + 1e-9) {
            best_nn = nn;
            best_lat = k;
            best_m = m;
        }
    }
    const lattice *lat = &lattices[best_lat];
    const int64_t m = best_m;
    const int64_t sites = (int64_t)lat->basis * m * m * m;
    const double a = len / (double)m;

    /* Local geometry: the H-H midpoint (centre of the smallest sphere around
     * the molecule, radius r0 sin(theta0/2)) at the origin, H-O-H in xz. */
    const double half = 0.5 * TIP3P_ANGLE_DEG * pi / 180;
    const double local[3][3] = {{0, 0, -TIP3P_BOND_R0 * cos(half)},
                                {TIP3P_BOND_R0 * sin(half), 0, 0},
                                {-TIP3P_BOND_R0 * sin(half), 0, 0}};

    /* Cell grid over the sites: a clash needs sites closer than 1.9 A plus
     * twice the molecule's radius and the largest shift. */
    const double reach = VKMD_WATER_BOX_MIN_CONTACT_A + 2 * TIP3P_BOND_R0 * sin(half) +
                         2 * sqrt(3.0) * JITTER_A + 1e-6;
    int32_t nc = (int32_t)floor(len / reach);
    if (nc < 3)
        nc = 1; /* small box: every molecule is a neighbour */
    const int64_t ncell = (int64_t)nc * nc * nc;
    head = malloc((size_t)ncell * sizeof *head);
    next = malloc((size_t)n * sizeof *next);
    cellof = malloc((size_t)n * sizeof *cellof);
    centre = malloc((size_t)n * 3 * sizeof *centre);
    if (!head || !next || !cellof || !centre) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "water:%d: out of memory", n);
        goto cleanup;
    }
    for (int64_t c = 0; c < ncell; ++c)
        head[c] = -1;
    for (int32_t i = 0; i < n; ++i) {
        /* Spread vacancies evenly: site floor(i * sites / n). */
        int64_t site = (int64_t)((double)i * (double)sites / (double)n);
        if (site >= sites)
            site = sites - 1;
        int64_t b = site % lat->basis, cell = site / lat->basis;
        int64_t cx = cell % m, cy = (cell / m) % m, cz = cell / (m * m);
        double *c = &centre[3 * i];
        c[0] = (cx + lat->frac[b][0] + 0.25) * a;
        c[1] = (cy + lat->frac[b][1] + 0.25) * a;
        c[2] = (cz + lat->frac[b][2] + 0.25) * a;
        int32_t ci[3];
        for (int k = 0; k < 3; ++k) {
            ci[k] = (int32_t)floor(c[k] / len * nc);
            ci[k] = ci[k] < 0 ? 0 : ci[k] >= nc ? nc - 1 : ci[k];
        }
        cellof[i] = nc == 1 ? 0 : ((int64_t)ci[2] * nc + ci[1]) * nc + ci[0];
        next[i] = head[cellof[i]];
        head[cellof[i]] = i;
    }

    /* Random orientations, then min-conflicts sweeps: a molecule that clashes
     * re-draws its orientation, keeping the draw with the fewest clashes. */
    uint64_t rng = seed ^ 0x5DEECE66Dull;
    const grid g = {head, next, cellof, nc};
    for (int32_t i = 0; i < n; ++i)
        orient(&rng, local, &centre[3 * i], &s.positions[9 * i]);
    int clean = 0;
    for (int sweep = 0; sweep < MAX_SWEEPS && !clean; ++sweep) {
        clean = 1;
        for (int32_t i = 0; i < n; ++i) {
            int32_t best = count_clashes(&g, s.positions, i, len, INT32_MAX);
            if (best == 0)
                continue;
            clean = 0;
            double keep[9];
            memcpy(keep, &s.positions[9 * i], sizeof keep);
            for (int t = 0; t < TRIES_PER_SWEEP && best > 0; ++t) {
                orient(&rng, local, &centre[3 * i], &s.positions[9 * i]);
                int32_t c = count_clashes(&g, s.positions, i, len, best);
                if (c < best) {
                    best = c;
                    memcpy(keep, &s.positions[9 * i], sizeof keep);
                }
            }
            memcpy(&s.positions[9 * i], keep, sizeof keep);
        }
    }
    if (!clean) {
        res = vkmd_fail(VKMD_ERROR_NUMERIC,
                        "water:%d: no set of orientations keeps every atom %.1f A from the other "
                        "molecules after %d sweeps",
                        n, VKMD_WATER_BOX_MIN_CONTACT_A, MAX_SWEEPS);
        goto cleanup;
    }

    VKMD_TRY(vkmd_system_finalize(&s, "water box"));
    *out = s;
    memset(&s, 0, sizeof s);

cleanup:
    free(head);
    free(next);
    free(cellof);
    free(centre);
    vkmd_system_destroy(&s);
    return res;
}
