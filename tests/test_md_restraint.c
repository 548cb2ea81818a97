/* A restrained solute holds its place: villin in vacuum (tests/data has no
 * solvated solute small enough for lavapipe; villin_vac is the smallest
 * protein), heavy atoms restrained to the starting coordinates with the
 * equilibration's mask and k (`!:Cl & !@H=`, 10 kcal/mol/A^2), Langevin
 * middle 300 K, friction 1/ps, 2 fs, H-bond constraints, 20 ps: the RMSD of
 * the restrained atoms from their references, sampled every picosecond,
 * stays below 0.5 A (a free atom on the spring alone would give
 * sqrt(3 kT / 2k) = 0.30 A; the bonds hold the atoms closer: 0.18 A seen).
 * The control, the same run without restraints, moves farther within 4 ps
 * (so the limit tells restrained from free). VKMD_TEST_QUICK=1: 4 ps. */
#include "test_md_common.h"
#include "io/load.h"
#include "ref/ref.h"
#include "sim/md.h"

#include <math.h>

static double restrained_rmsd(const vkmd_restraints *r, const vkmd_box *box, const double *x)
{
    double s = 0;
    for (int32_t n = 0; n < r->count; ++n) {
        double d[3];
        ref_delta(box, &r->ref[3 * n], &x[3 * r->atoms[n]], d);
        s += d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    }
    return sqrt(s / r->count);
}

/* Runs `ps` picoseconds and returns the largest RMSD sampled each ps. */
static double run_ps(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_restraints *r,
                     const vkmd_restraints *measure, int ps)
{
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, sys));
    const vkmd_md_desc d = {.settings = &s,
                            .temperature_k = 300,
                            .friction_per_ps = 1,
                            .dt_fs = 2,
                            .seed = 2026,
                            .restraints = r};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    if (!md)
        return INFINITY;
    CHECK_OK(vkmd_md_init_velocities(ctx, md, 300, 17));
    double *x = calloc(3 * (size_t)sys->atom_count, sizeof *x);
    double worst = 0, temp_sum = 0;
    for (int p = 1; p <= ps; ++p) {
        CHECK_OK(vkmd_md_step(ctx, md, 500));
        vkmd_md_report rep;
        CHECK_OK(vkmd_md_read(ctx, md, &rep, x, NULL));
        const double rmsd = restrained_rmsd(measure, &sys->box, x);
        worst = fmax(worst, rmsd);
        temp_sum += rep.temperature_k;
        if (p % 4 == 0 || p == ps)
            printf("  %s %2d ps: RMSD %.3f A, T %.1f K, restraint %.2f kcal/mol\n",
                   r ? "restrained" : "free      ", p, rmsd, rep.temperature_k,
                   rep.potential.restraint);
    }
    printf("  %s: largest RMSD %.3f A over %d ps, mean T %.1f K\n", r ? "restrained" : "free",
           worst, ps, temp_sum / ps);
    free(x);
    vkmd_md_destroy(ctx, md);
    return worst;
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int rc = test_vk_open("test_md_restraint", &ctx);
    if (rc >= 0)
        return rc;
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/villin_vac.prmtop",
                              VKMD_TEST_DATA_DIR "/villin_vac.inpcrd", &sys));
    vkmd_restraints r = {0};
    CHECK_OK(vkmd_restraints_from_mask(&sys, "!:Cl & !@H=", sys.positions, 10, 0, &r));
    printf("  %d restrained atoms of %d\n", r.count, sys.atom_count);
    const int ps = test_quick() ? 4 : 20;
    const double held = run_ps(ctx, &sys, &r, &r, ps);
    CHECK(held < 0.5);
    const double free_rmsd = run_ps(ctx, &sys, NULL, &r, 4);
    CHECK(free_rmsd > 0.5);
    vkmd_restraints_destroy(&r);
    vkmd_system_destroy(&sys);
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_md_restraint");
}
