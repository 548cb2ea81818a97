/* The CPU reference in triclinic boxes (truncated octahedron, rhombic
 * dodecahedron, a general cell), checked without OpenMM:
 * - the ghost-image cell list finds exactly the pairs of the O(N^2) minimum
 *   image search (energies and forces agree to rounding);
 * - PME through the reciprocal box agrees with a direct Ewald k-space sum
 *   over m = n_a a* + n_b b* + n_c c* written here (energy 1e-6, forces 1e-5
 *   RMS-relative on a fine grid);
 * - PME on small even and odd grids equals OpenMM's full-complex-DFT
 *   evaluation (each grid index its own kernel) to rounding;
 * - every term's forces are minus the gradient of its energy (central
 *   differences);
 * - a rectangular lattice described by a skewed basis (b = a + b', so the
 *   box is flagged triclinic and takes every triclinic code path) gives the
 *   rectangular box's energies and forces to 1e-10;
 * - the PME grid rule uses the box vectors' diagonal (OpenMM's), and a box
 *   thinner than twice the cutoff between its closest faces is refused. */
#include "ref_testsys.h"
#include "testlib.h"

#include <stdio.h>

#define OCT_DEG 109.4712206344907

/* Places `sys`'s 4-atom chains anew in its (any) box: as testsys_random, with
 * start points uniform in the cell. */
static void place_chains(vkmd_system *sys)
{
    const int nmol = sys->atom_count / 4;
    const double(*v)[3] = sys->box.vec;
    for (int m = 0; m < nmol; ++m) {
        int placed = 0;
        for (int tries = 0; tries < 100000 && !placed; ++tries) {
            double *x = &sys->positions[12 * m];
            double u[3] = {testsys_uniform(), testsys_uniform(), testsys_uniform()};
            for (int c = 0; c < 3; ++c)
                x[c] = u[0] * v[0][c] + u[1] * v[1][c] + u[2] * v[2][c];
            double prev[3] = {0, 0, 0};
            for (int a = 1; a < 4; ++a) {
                double dir[3];
                for (;;) {
                    testsys_unit(dir);
                    double cosang = -(dir[0] * prev[0] + dir[1] * prev[1] + dir[2] * prev[2]);
                    if (a == 1 || (cosang > -0.8 && cosang < 0.5))
                        break;
                }
                for (int c = 0; c < 3; ++c)
                    x[3 * a + c] = x[3 * (a - 1) + c] + 1.5 * dir[c];
                memcpy(prev, dir, sizeof prev);
            }
            for (int a = 0; a < 4; ++a) { /* wrap atom by atom into the brick */
                double sh[3];
                vkmd_box_wrap_shift(&sys->box, &x[3 * a], sh);
                for (int c = 0; c < 3; ++c)
                    x[3 * a + c] += sh[c];
            }
            placed = testsys_min_dist2(sys, 4 * m, 4 * m + 3) > 2.6 * 2.6;
            for (int32_t a = 4 * m; a < 4 * m + 4 && placed; ++a)
                for (int32_t b = 0; b < 4 * m && placed; ++b) {
                    double r = sqrt(testsys_min_dist2(sys, a, b));
                    if (r < 2.6 || fabs(r - 7.0) < 0.02)
                        placed = 0;
                }
        }
        CHECK_MSG(placed, "could not place chain %d", m);
    }
}

/* Direct Ewald reciprocal sum in any box: m = n_a a* + n_b b* + n_c c*. */
static double ewald_direct(const vkmd_system *sys, double alpha, double k, double *f)
{
    const int nmax = 14;
    double r[3][3];
    vkmd_box_reciprocal(&sys->box, r);
    const double volume = vkmd_box_volume_a3(&sys->box);
    const int32_t n = sys->atom_count;
    double *c = malloc(sizeof *c * (size_t)n), *s = malloc(sizeof *s * (size_t)n);
    double energy = 0;
    for (int na = -nmax; na <= nmax; ++na)
        for (int nb = -nmax; nb <= nmax; ++nb)
            for (int nc = -nmax; nc <= nmax; ++nc) {
                if (na == 0 && nb == 0 && nc == 0)
                    continue;
                double m[3];
                for (int d = 0; d < 3; ++d)
                    m[d] = na * r[0][d] + nb * r[1][d] + nc * r[2][d];
                double m2 = m[0] * m[0] + m[1] * m[1] + m[2] * m[2];
                double g = exp(-M_PI * M_PI * m2 / (alpha * alpha)) / m2;
                if (g < 1e-30)
                    continue;
                double sr = 0, si = 0;
                for (int32_t j = 0; j < n; ++j) {
                    const double *x = &sys->positions[3 * j];
                    double th = 2 * M_PI * (m[0] * x[0] + m[1] * x[1] + m[2] * x[2]);
                    c[j] = cos(th);
                    s[j] = sin(th);
                    sr += sys->atoms[j].charge * c[j];
                    si += sys->atoms[j].charge * s[j];
                }
                energy += g * (sr * sr + si * si);
                for (int32_t j = 0; j < n; ++j) {
                    double im = sr * s[j] - si * c[j];
                    double sc = 2 * k * sys->atoms[j].charge / volume * g * im;
                    for (int d = 0; d < 3; ++d)
                        f[3 * j + d] += sc * m[d];
                }
            }
    free(c);
    free(s);
    return k / (2 * M_PI * volume) * energy;
}

/* PME energy as OpenMM's Reference platform computes it: a full complex DFT
 * of the spread grid (written naively here, for small grids), every index
 * with its own kernel, the upper half and the Nyquist index of an even grid
 * as negative wave numbers. */
static int freq_of(int i, int k)
{
    return i < (k + 1) / 2 ? i : i - k;
}

static double pme_full_dft_energy(const vkmd_system *sys, const vkmd_ff_settings *s, double k)
{
    const int *K = s->pme_grid, order = s->pme_order, n = K[0] * K[1] * K[2];
    double r[3][3], *q = calloc((size_t)n, sizeof *q), *mod[3];
    vkmd_box_reciprocal(&sys->box, r);
    for (int d = 0; d < 3; ++d) {
        mod[d] = calloc((size_t)K[d], sizeof *mod[d]);
        vkmd_pme_moduli(K[d], order, mod[d]);
    }
    for (int32_t a = 0; a < sys->atom_count; ++a) {
        double w[3][16], dw[16];
        int i0[3];
        for (int d = 0; d < 3; ++d) {
            const double *x = &sys->positions[3 * a];
            double t = r[d][0] * x[0] + r[d][1] * x[1] + r[d][2] * x[2];
            t = (t - floor(t)) * K[d];
            i0[d] = (int)t;
            vkmd_pme_bspline(t - i0[d], order, w[d], dw);
        }
        for (int u = 0; u < order; ++u)
            for (int v = 0; v < order; ++v)
                for (int z = 0; z < order; ++z)
                    q[(((i0[0] + u) % K[0]) * K[1] + (i0[1] + v) % K[1]) * K[2] +
                      (i0[2] + z) % K[2]] += sys->atoms[a].charge * w[0][u] * w[1][v] * w[2][z];
    }
    const double volume = vkmd_box_volume_a3(&sys->box);
    const double alpha = s->ewald_alpha, pre = k / (M_PI * volume);
    double e = 0;
    for (int x = 0; x < K[0]; ++x)
        for (int y = 0; y < K[1]; ++y)
            for (int z = 0; z < K[2]; ++z) {
                if (x == 0 && y == 0 && z == 0)
                    continue;
                double sr = 0, si = 0;
                for (int p = 0; p < n; ++p) {
                    const int px = p / (K[1] * K[2]), py = (p / K[2]) % K[1], pz = p % K[2];
                    const double th =
                        2 * M_PI *
                        ((double)x * px / K[0] + (double)y * py / K[1] + (double)z * pz / K[2]);
                    sr += q[p] * cos(th);
                    si -= q[p] * sin(th);
                }
                const int f[3] = {freq_of(x, K[0]), freq_of(y, K[1]), freq_of(z, K[2])};
                double m[3], m2 = 0;
                for (int c = 0; c < 3; ++c) {
                    m[c] = f[0] * r[0][c] + f[1] * r[1][c] + f[2] * r[2][c];
                    m2 += m[c] * m[c];
                }
                e += pre * exp(-M_PI * M_PI * m2 / (alpha * alpha)) /
                     (m2 * mod[0][x] * mod[1][y] * mod[2][z]) * (sr * sr + si * si);
            }
    for (int d = 0; d < 3; ++d)
        free(mod[d]);
    free(q);
    return 0.5 * e;
}

static void check_box(const char *name, const double len[3], const double ang[3], int nmol)
{
    const double k = VKMD_COULOMB_K_OPENMM, alpha = 0.35;
    vkmd_system sys;
    testsys_random(&sys, nmol, 20.0, 7.0);
    CHECK_OK(vkmd_box_set(&sys.box, len, ang, name));
    CHECK(sys.box.triclinic == 1);
    place_chains(&sys);
    const int32_t n3 = 3 * sys.atom_count;
    printf("%s: %d atoms, edges %.3f %.3f %.3f A, angles %.4f %.4f %.4f, width %.3f A, "
           "volume %.1f A^3\n",
           name, sys.atom_count, len[0], len[1], len[2], ang[0], ang[1], ang[2],
           vkmd_box_min_width(&sys.box), vkmd_box_volume_a3(&sys.box));

    /* Ghost cell list vs all pairs. */
    vkmd_ff_settings s = testsys_settings(7.0, alpha, 0, 5);
    CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
    double *fa = calloc((size_t)n3, sizeof *fa), *fb = calloc((size_t)n3, sizeof *fb);
    double lj_a, co_a, lj_b, co_b;
    CHECK_OK(ref_nonbonded_pairs(&sys, &s, k, fa, &lj_a, &co_a));
    CHECK_OK(ref_nonbonded_pairs_n2(&sys, &s, k, fb, &lj_b, &co_b));
    double e_lj = fabs(lj_a - lj_b) / fabs(lj_b), e_co = fabs(co_a - co_b) / fabs(co_b);
    double e_f = rms_rel_error(fa, fb, n3);
    printf("  cell list vs O(N^2): LJ %.12f vs %.12f (rel %.2g), Coulomb %.12f vs %.12f (rel "
           "%.2g), forces %.2g (limit 1e-12)\n",
           lj_a, lj_b, e_lj, co_a, co_b, e_co, e_f);
    CHECK(e_lj < 1e-12 && e_co < 1e-12 && e_f < 1e-12);

    /* PME vs the direct Ewald sum on a fine grid. */
    memset(fa, 0, sizeof *fa * (size_t)n3);
    memset(fb, 0, sizeof *fb * (size_t)n3);
    const double e_dir = ewald_direct(&sys, alpha, k, fb);
    vkmd_ff_settings fine = testsys_settings(7.0, alpha, 0, 5);
    for (int d = 0; d < 3; ++d)
        fine.pme_grid[d] = 2 * (int)ceil(sys.box.vec[d][d] / 0.6);
    double e_pme;
    CHECK_OK(ref_pme(&sys, &fine, k, fa, &e_pme));
    double ee = fabs(e_pme - e_dir) / fabs(e_dir), ef = rms_rel_error(fa, fb, n3);
    printf("  PME (grid %dx%dx%d) vs direct Ewald: E %.10f vs %.10f (rel %.2g, limit 1e-6), "
           "forces RMS rel %.2g (limit 1e-5)\n",
           fine.pme_grid[0], fine.pme_grid[1], fine.pme_grid[2], e_pme, e_dir, ee, ef);
    CHECK(ee < 1e-6 && ef < 1e-5);

    /* OpenMM's full-DFT PME on small even and odd grids: the same energy to
     * rounding (the Nyquist planes of even grids need the kernel of each
     * index, which the half-complex transform gets by symmetrising). */
    {
        const int grids[2][3] = {{8, 6, 10}, {7, 9, 5}};
        for (int g = 0; g < 2; ++g) {
            vkmd_ff_settings small = testsys_settings(7.0, alpha, 0, 5);
            memcpy(small.pme_grid, grids[g], sizeof small.pme_grid);
            double e_half, e_full = pme_full_dft_energy(&sys, &small, k);
            CHECK_OK(ref_pme(&sys, &small, k, NULL, &e_half));
            double rel = fabs(e_half - e_full) / fabs(e_full);
            printf("  PME grid %dx%dx%d vs a full complex DFT (OpenMM's way): %.12f vs %.12f "
                   "(rel %.2g, limit 1e-11)\n",
                   grids[g][0], grids[g][1], grids[g][2], e_half, e_full, rel);
            CHECK(rel < 1e-11);
        }
    }

    /* Finite differences of every periodic term and of the whole. */
    struct {
        const char *name;
        testsys_term term;
    } terms[] = {{"bonds", term_bonds}, {"angles", term_angles}, {"dihedrals", term_propers},
                 {"1-4", term_pairs14}, {"pairs", term_pairs},   {"excluded", term_excluded},
                 {"PME", term_pme},     {"total", term_total}};
    for (size_t t = 0; t < sizeof terms / sizeof terms[0]; ++t) {
        double rel = testsys_fd(&sys, &s, terms[t].term, 1e-5, NULL, NULL);
        printf("  finite differences %-9s rel RMS %.3g (limit 1e-6)\n", terms[t].name, rel);
        CHECK(rel < 1e-6);
    }
    free(fa);
    free(fb);
    vkmd_system_destroy(&sys);
}

int main(void)
{
    printf("truncated octahedron, rhombic dodecahedron, general cell:\n");
    check_box("octahedron", (double[3]){22, 22, 22}, (double[3]){OCT_DEG, OCT_DEG, OCT_DEG}, 40);
    check_box("dodecahedron", (double[3]){20, 20, 20}, (double[3]){60, 60, 90}, 40);
    check_box("general", (double[3]){19, 21, 23}, (double[3]){80, 100, 72}, 40);

    printf("a rectangular lattice through a skewed basis takes the triclinic paths:\n");
    {
        vkmd_system sys;
        testsys_random(&sys, 40, 19.0, 7.0);
        vkmd_ff_settings s = testsys_settings(7.0, 0.35, 0, 5);
        CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
        const int32_t n3 = 3 * sys.atom_count;
        double *fr = calloc((size_t)n3, sizeof *fr), *ft = calloc((size_t)n3, sizeof *ft);
        vkmd_energy er, et;
        CHECK_OK(vkmd_ref_compute(&sys, &s, &er, fr));
        const vkmd_box rect = sys.box;
        const double vec[3][3] = {{19, 0, 0}, {19, 19, 0}, {-19, 19, 19}};
        CHECK_OK(vkmd_box_set_vectors(&sys.box, vec, "skewed"));
        CHECK(sys.box.triclinic == 1);
        CHECK(sys.box.vec[1][0] == 0 && sys.box.vec[2][0] == 0 && sys.box.vec[2][1] == 0);
        vkmd_ff_settings st = testsys_settings(7.0, 0.35, 0, 5);
        CHECK_OK(vkmd_ff_settings_resolve(&st, &sys));
        CHECK(memcmp(st.pme_grid, s.pme_grid, sizeof s.pme_grid) == 0);
        CHECK_OK(vkmd_ref_compute(&sys, &st, &et, ft));
        double rel = fabs(et.total - er.total) / fabs(er.total), rf = rms_rel_error(ft, fr, n3);
        printf("  total %.12f (rectangular) vs %.12f (skewed): rel %.2g; pairs %.2g recip %.2g; "
               "forces RMS rel %.2g (limit 1e-10)\n",
               er.total, et.total, rel,
               fabs(et.lj_pair + et.coulomb_real - er.lj_pair - er.coulomb_real),
               fabs(et.coulomb_recip - er.coulomb_recip), rf);
        CHECK(rel < 1e-10 && rf < 1e-10);
        sys.box = rect;
        free(fr);
        free(ft);
        vkmd_system_destroy(&sys);
    }

    printf("PME grid rule and the width check:\n");
    {
        vkmd_system sys;
        testsys_random(&sys, 4, 30.0, 7.0);
        const double ang[3] = {OCT_DEG, OCT_DEG, OCT_DEG};
        CHECK_OK(vkmd_box_set(&sys.box, (double[3]){40, 40, 40}, ang, "oct"));
        vkmd_ff_settings s = testsys_settings(9.0, 0, 0, 5);
        s.ewald_alpha = 0;
        s.openmm_reference_grid = 1;
        CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
        for (int d = 0; d < 3; ++d) {
            int want = (int)ceil(2.0 * s.ewald_alpha * sys.box.vec[d][d] / (3.0 * pow(5e-4, 0.2)));
            printf("  axis %d: diagonal %.4f A -> grid %d (expected %d)\n", d, sys.box.vec[d][d],
                   s.pme_grid[d], want);
            CHECK(s.pme_grid[d] == want);
        }
        /* Edge 30 A: every edge passes 2 x 13 A but the width is 24.5 A. */
        CHECK_OK(vkmd_box_set(&sys.box, (double[3]){30, 30, 30}, ang, "oct"));
        vkmd_ff_settings t = testsys_settings(13.0, 0, 0, 5);
        t.ewald_alpha = 0;
        CHECK(vkmd_ff_settings_resolve(&t, &sys) == VKMD_ERROR_INVALID_ARGUMENT);
        printf("  %s\n", vkmd_last_error());
        CHECK(strstr(vkmd_last_error(), "closest faces") != NULL);
        vkmd_energy e;
        t = testsys_settings(13.0, 0.3, 32, 5);
        CHECK(vkmd_ref_compute(&sys, &t, &e, NULL) == VKMD_ERROR_INVALID_ARGUMENT);
        printf("  %s\n", vkmd_last_error());
        vkmd_system_destroy(&sys);
    }
    return test_finish("test_ref_triclinic");
}
