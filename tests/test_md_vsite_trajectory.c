/* GPU MD with virtual sites (the sites rebuilt and their forces spread inside
 * every force evaluation, SETTLE on each water's O, H, H) against the CPU
 * double-precision integrator (ref_md_step, whose forces come from
 * vkmd_ref_compute with the sites built) from the same start state, on the
 * vacuum cluster of 5 TIP4P-Ew and 4 TIP5P waters (tests/vsite_testsys.h):
 * velocity Verlet 100 steps of 1 fs and Langevin middle 25 steps of 2 fs
 * (same Philox noise): RMSD <= 1e-3 A over every atom (the reference's sites
 * built from its parents at the end), SETTLE violation <= 1e-4 A, the sites
 * with zero velocity. Figures printed. */
#include "test_md_common.h"
#include "tolerance.h"
#include "ref/ref.h"
#include "ref/ref_md.h"
#include "ref/ref_vsite.h"
#include "sim/md.h"
#include "system/constraints.h"
#include "vk/context.h"
#include "vsite_testsys.h"

static void run_case(vkmd_vk_context *ctx, const char *label, vkmd_system *sys,
                     vkmd_integrator integrator, double dt_fs, int steps)
{
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, sys));
    const vkmd_md_desc d = {.settings = &s,
                            .integrator = integrator,
                            .dt_fs = dt_fs,
                            .temperature_k = 300,
                            .friction_per_ps = 1,
                            .seed = 12345,
                            .com_every = -1,
                            .max_batch_steps = 25};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    if (!md)
        return;
    const size_t n3 = 3 * (size_t)sys->atom_count;
    double *x = malloc(sizeof *x * n3), *v = malloc(sizeof *v * n3);
    double *xg = malloc(sizeof *xg * n3), *vg = malloc(sizeof *vg * n3);
    double *f = malloc(sizeof *f * n3);
    CHECK_OK(vkmd_md_init_velocities(ctx, md, 300, 7));
    CHECK_OK(vkmd_md_read(ctx, md, NULL, x, v));
    double v_site = 0;
    for (int32_t k = 0; k < sys->vsite_count; ++k)
        for (int c = 0; c < 3; ++c)
            v_site = fmax(v_site, fabs(v[3 * sys->vsites[k].site + c]));
    vkmd_constraint_set cs = {0};
    CHECK_OK(vkmd_constraints_build(sys, 1, 0, &cs));
    vkmd_system view = *sys;
    view.positions = x;
    vkmd_energy e_ref;
    CHECK_OK(vkmd_ref_compute(&view, &s, &e_ref, f));
    const ref_md_params p = {.integrator = integrator == VKMD_INTEGRATOR_VERLET
                                               ? REF_INTEGRATOR_VERLET
                                               : REF_INTEGRATOR_LANGEVIN,
                             .dt_fs = dt_fs,
                             .temperature_k = 300,
                             .friction_per_ps = 1,
                             .seed = 12345,
                             .tol = 1e-7};
    for (int k = 0; k < steps; ++k)
        CHECK_OK(ref_md_step(sys, &s, &cs, &p, (uint64_t)k, x, v, f, &e_ref));
    ref_vsite_build(sys, x);
    CHECK_OK(vkmd_md_step(ctx, md, steps));
    vkmd_md_report rep;
    CHECK_OK(vkmd_md_read(ctx, md, &rep, xg, vg));
    for (int32_t k = 0; k < sys->vsite_count; ++k)
        for (int c = 0; c < 3; ++c)
            v_site = fmax(v_site, fabs(vg[3 * sys->vsites[k].site + c]));
    const double dev = md_rmsd(sys, xg, x, NULL);
    double water_a = 0, hbond_rel = 0;
    CHECK_OK(vkmd_md_constraint_violation(ctx, md, &water_a, &hbond_rel));
    printf("%-26s %4d steps dt %.1f fs: RMSD gpu-ref %.3e A (tol %.0e), potential gpu %.5f ref "
           "%.5f kcal/mol, water violation %.2e A, max |v| of a site %.1e A/fs, %lld dof\n",
           label, steps, dt_fs, dev, TOL_MD_RMSD_A, rep.potential.total, e_ref.total, water_a,
           v_site, (long long)vkmd_md_dof(md));
    CHECK_MSG(dev <= TOL_MD_RMSD_A, "%s: RMSD %.3e A", label, dev);
    CHECK_MSG(water_a <= TOL_MD_WATER_A, "%s: water violation %.3e A", label, water_a);
    CHECK(v_site == 0);
    CHECK(vkmd_md_dof(md) == 3 * (sys->atom_count - sys->vsite_count) - 3 * sys->water_count);
    CHECK(fabs(rep.potential.total - e_ref.total) <= 1e-3 * fabs(e_ref.total) + 0.01);
    vkmd_constraints_destroy(&cs);
    vkmd_md_destroy(ctx, md);
    free(x);
    free(v);
    free(xg);
    free(vg);
    free(f);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int rc = test_vk_open("test_md_vsite_trajectory", &ctx);
    if (rc >= 0)
        return rc;
    vkmd_system sys;
    CHECK(vsite_testsys_build(&sys, 5, 4) == 0);
    run_case(ctx, "4/5-site waters verlet", &sys, VKMD_INTEGRATOR_VERLET, 1.0, 100);
    run_case(ctx, "4/5-site waters langevin", &sys, VKMD_INTEGRATOR_LANGEVIN, 2.0, 25);
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_system_destroy(&sys);
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_md_vsite_trajectory");
}
