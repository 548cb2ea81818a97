/* The device force field in triclinic cells against the CPU reference
 * (engine/ref, which test_ref_triclinic checks against an O(N^2) search and a
 * direct Ewald sum): water in a truncated octahedron, a rhombic dodecahedron
 * and a general cell, each energy term within TOL_FP32_ENERGY_REL and the
 * forces within TOL_FP32_FORCE_RMS RMS-relative (1e-5; the body and criteria
 * are test_gpu_forcefield_common.h's). The waters are cut from a lattice
 * water box: molecules whose oxygen falls in the brick [0, ax) x [0, by) x
 * [0, cz) (a unit cell of the lattice) are kept unless an atom comes within
 * 2.2 A of a kept molecule under the cell's minimum image, then every atom
 * is displaced by up to 0.03 A (rigid water sits at the bond minimum).
 * Each cell again with every coordinate 1,000 A out (test_gpu_forcefield_
 * common.h: ff_compare_far; issue 36): the split positions modes must meet
 * the same criteria there, where fp32 positions must miss them (this test
 * runs in the mode of VKMD_TEST_POSITIONS, tests/CMakeLists.txt).
 * A rectangular box described by a skewed basis (flagged triclinic, same
 * lattice) must give the rectangular box's energies to 1e-5, through every
 * triclinic code path of the device. */
#include "test_gpu_forcefield_common.h"
#include "triclinic_water.h"

/* Every coordinate moved this far (A) in the second comparison of a cell: a
 * float coordinate there rounds at 3e-5 A. */
#define FAR_SHIFT_A 1000.0

/* Real-space Ewald Coulomb by an O(N^2) minimum-image double sum (waters
 * only: every excluded pair is inside a molecule). */
static double brute_coulomb_real(const vkmd_system *sys, const vkmd_ff_settings *s)
{
    const double k = vkmd_ff_coulomb_k(s), rc2 = s->cutoff_a * s->cutoff_a;
    double e = 0;
    for (int32_t i = 0; i < sys->atom_count; ++i)
        for (int32_t j = i + 1; j < sys->atom_count; ++j) {
            if (i / 3 == j / 3)
                continue;
            double d[3];
            for (int c = 0; c < 3; ++c)
                d[c] = sys->positions[3 * j + c] - sys->positions[3 * i + c];
            vkmd_box_min_image(&sys->box, d);
            const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (r2 >= rc2)
                continue;
            const double r = sqrt(r2);
            e += k * sys->atoms[i].charge * sys->atoms[j].charge * erfc(s->ewald_alpha * r) / r;
        }
    return e;
}

/* grid: a PME grid to use (even and coarse: the Nyquist planes matter in a
 * skewed cell); NULL: the default. */
static void run_cell(vkmd_vk_context *ctx, const char *name, const double len[3],
                     const double ang[3], const int *grid)
{
    vkmd_box box;
    CHECK_OK(vkmd_box_set(&box, len, ang, name));
    CHECK(box.triclinic == 1);
    vkmd_system sys = {0};
    triclinic_water(&box, &sys);
    triclinic_jiggle(&sys, 0x9E3779B97F4A7C15ull);
    printf("%s: vectors a (%.4f 0 0), b (%.4f %.4f 0), c (%.4f %.4f %.4f) A, smallest width "
           "%.3f A, volume %.1f A^3, %d waters\n",
           name, box.vec[0][0], box.vec[1][0], box.vec[1][1], box.vec[2][0], box.vec[2][1],
           box.vec[2][2], vkmd_box_min_width(&box), vkmd_box_volume_a3(&box), sys.atom_count / 3);
    vkmd_ff_settings s = {.cutoff_a = 8.0};
    if (grid)
        memcpy(s.pme_grid, grid, sizeof s.pme_grid);
    CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
    ff_compare_settings(ctx, name, &sys, 0, &s);
    ff_compare_far(ctx, name, &sys, &s, -1, FAR_SHIFT_A);
    vkmd_energy er;
    double *f = calloc(3 * (size_t)sys.atom_count, sizeof(double));
    CHECK_OK(vkmd_ref_compute(&sys, &s, &er, f));
    check_close("reference coulomb_real vs O(N^2) minimum image", er.coulomb_real,
                brute_coulomb_real(&sys, &s), 1e-10, 1e-10);
    free(f);
    vkmd_system_destroy(&sys);
}

/* A rectangular water box and the same lattice with b' = b + a: the device's
 * triclinic paths must give the rectangular energies and forces. */
static void run_skewed(vkmd_vk_context *ctx)
{
    vkmd_system rect = {0};
    CHECK_OK(vkmd_water_box_build(400, VKMD_WATER_BOX_DEFAULT_SEED, &rect));
    if (!rect.positions)
        return;
    triclinic_jiggle(&rect, 0x1234567ull);
    for (int i = 0; i < 3 * rect.atom_count; ++i)
        rect.positions[i] = (double)(float)rect.positions[i];
    vkmd_system skew = rect; /* shares the arrays: destroyed once, through rect */
    const double l = rect.box.len[0];
    const double v[3][3] = {{l, 0, 0}, {l, l, 0}, {0, 0, l}};
    CHECK_OK(vkmd_box_set_vectors(&skew.box, v, "skewed"));
    skew.box.triclinic = 1; /* keep the triclinic paths although the reduced cell is square */
    vkmd_ff_settings s = {.cutoff_a = 8.0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, &rect));
    vkmd_energy er, es;
    double *fr = calloc(3 * (size_t)rect.atom_count, sizeof(double));
    double *fs = calloc(3 * (size_t)rect.atom_count, sizeof(double));
    vkmd_forcefield *a = NULL, *b = NULL;
    const vkmd_forcefield_desc fd = {.settings = &s};
    CHECK_OK(vkmd_forcefield_create(ctx, &rect, &fd, &a));
    CHECK_OK(vkmd_forcefield_create(ctx, &skew, &fd, &b));
    if (a && b) {
        CHECK_OK(vkmd_forcefield_evaluate(ctx, a, NULL, &er, fr));
        CHECK_OK(vkmd_forcefield_evaluate(ctx, b, NULL, &es, fs));
        printf("== skewed basis of a %.3f A cube, %d atoms: total %.6f (rectangular) vs %.6f "
               "(triclinic paths) kcal/mol\n",
               l, rect.atom_count, er.total, es.total);
        check_close("lj_pair", es.lj_pair, er.lj_pair, TOL_FP32_ENERGY_REL, TOL_FP32_ENERGY_ZERO);
        check_close("coulomb_real", es.coulomb_real, er.coulomb_real, TOL_FP32_ENERGY_REL,
                    TOL_FP32_ENERGY_ZERO);
        check_close("coulomb_recip", es.coulomb_recip, er.coulomb_recip, TOL_FP32_ENERGY_REL,
                    TOL_FP32_ENERGY_ZERO);
        check_close("bond", es.bond, er.bond, TOL_FP32_ENERGY_REL, TOL_FP32_ENERGY_ZERO);
        double rel = rms_rel_error(fs, fr, 3 * rect.atom_count);
        printf("  forces: RMS(F_tri - F_rect)/RMS(F_rect) %.3g (limit %.0e)\n", rel,
               TOL_FP32_FORCE_RMS);
        CHECK(rel <= TOL_FP32_FORCE_RMS);
    }
    vkmd_forcefield_destroy(ctx, a);
    vkmd_forcefield_destroy(ctx, b);
    free(fr);
    free(fs);
    vkmd_system_destroy(&rect);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_triclinic", &ctx);
    if (early >= 0)
        return early;
    run_cell(ctx, "truncated octahedron", (double[]){24, 24, 24},
             (double[]){OCT_DEG, OCT_DEG, OCT_DEG}, NULL);
    run_cell(ctx, "truncated octahedron, coarse even PME grid", (double[]){24, 24, 24},
             (double[]){OCT_DEG, OCT_DEG, OCT_DEG}, (const int[]){12, 12, 10});
    run_cell(ctx, "rhombic dodecahedron", (double[]){24, 24, 24}, (double[]){60, 60, 90}, NULL);
    run_cell(ctx, "general cell", (double[]){21, 23, 25}, (double[]){78, 97, 104}, NULL);
    run_skewed(ctx);
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_triclinic");
}
