/* GPU MD steps (engine/sim/md.c, shaders/md.comp + constraints) against the
 * CPU double-precision reference integrator (ref_md_step, engine/ref/ref_md.h)
 * from the same start state:
 *   - velocity Verlet, 100 steps: water:216 (rigid water, SETTLE, PME, 1 fs)
 *     and villin in vacuum (H-bond clusters, 2 fs): RMSD <= 1e-3 A;
 *   - Langevin middle, 25 steps of water:216 with the same seed: the noise
 *     is the same Philox stream on both sides, so the trajectories agree too
 *     (25 steps: liquid water is chaotic, and fp32 rounding differences grow
 *     about 10x per 50 fs; 100 steps of 2 fs end near 1e-2 A);
 *   - SETTLE and H-bond constraint violations after the run.
 * Figures printed. */
#include "test_md_common.h"
#include "tolerance.h"
#include "core/units.h"
#include "io/load.h"
#include "ref/ref.h"
#include "ref/ref_md.h"
#include "sim/md.h"
#include "system/water_box.h"
#include "vk/context.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void run_case(vkmd_vk_context *ctx, const char *label, vkmd_system *sys,
                     vkmd_integrator integrator, double dt_fs, int hbonds, int steps)
{
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, sys));
    const vkmd_md_desc d = {.settings = &s,
                            .integrator = integrator,
                            .dt_fs = dt_fs,
                            .temperature_k = 300,
                            .friction_per_ps = 1,
                            .seed = 12345,
                            .constraints = hbonds ? VKMD_CONSTRAINTS_HBONDS : VKMD_CONSTRAINTS_NONE,
                            .com_every = -1,
                            .max_batch_steps = 25};
    vkmd_md *md = NULL;
    vkmd_result r = vkmd_md_create(ctx, sys, &d, &md);
    CHECK_OK(r);
    if (r != VKMD_OK)
        return;
    const size_t n3 = 3 * (size_t)sys->atom_count;
    double *x = malloc(sizeof *x * n3), *v = malloc(sizeof *v * n3);
    double *xg = malloc(sizeof *xg * n3), *vg = malloc(sizeof *vg * n3);
    double *f = malloc(sizeof *f * n3);
    CHECK_OK(vkmd_md_init_velocities(ctx, md, 300, 7));
    CHECK_OK(vkmd_md_read(ctx, md, NULL, x, v));

    vkmd_constraint_set cs = {0};
    CHECK_OK(vkmd_constraints_build(sys, 1, hbonds, &cs));
    vkmd_system view = *sys;
    view.positions = x;
    vkmd_energy e0;
    CHECK_OK(vkmd_ref_compute(&view, &s, &e0, f));
    const ref_md_params p = {.integrator = integrator == VKMD_INTEGRATOR_VERLET
                                               ? REF_INTEGRATOR_VERLET
                                               : REF_INTEGRATOR_LANGEVIN,
                             .dt_fs = dt_fs,
                             .temperature_k = 300,
                             .friction_per_ps = 1,
                             .seed = 12345,
                             .tol = 1e-7};
    vkmd_energy e_ref = e0;
    for (int k = 0; k < steps; ++k)
        CHECK_OK(ref_md_step(sys, &s, &cs, &p, (uint64_t)k, x, v, f, &e_ref));
    CHECK_OK(vkmd_md_step(ctx, md, steps));
    vkmd_md_report rep;
    CHECK_OK(vkmd_md_read(ctx, md, &rep, xg, vg));
    const double dev = md_rmsd(sys, xg, x, NULL);
    double vr = 0, vn = 0;
    for (size_t k = 0; k < n3; ++k) {
        vr += (vg[k] - v[k]) * (vg[k] - v[k]);
        vn += v[k] * v[k];
    }
    double water_a = 0, hbond_rel = 0;
    CHECK_OK(vkmd_md_constraint_violation(ctx, md, &water_a, &hbond_rel));
    printf("%-28s %5d steps dt %.1f fs: RMSD gpu-ref %.3e A (tol %.0e), velocity RMS rel %.3e, "
           "potential gpu %.4f ref %.4f kcal/mol, violation water %.2e A hbond %.2e rel\n",
           label, steps, dt_fs, dev, TOL_MD_RMSD_A, sqrt(vr / vn), rep.potential.total, e_ref.total,
           water_a, hbond_rel);
    CHECK_MSG(dev <= TOL_MD_RMSD_A, "%s: RMSD %.3e A", label, dev);
    CHECK_MSG(water_a <= TOL_MD_WATER_A, "%s: water violation %.3e A", label, water_a);
    CHECK_MSG(hbond_rel <= TOL_MD_HBOND_REL, "%s: H-bond violation %.3e", label, hbond_rel);
    CHECK(fabs(rep.potential.total - e_ref.total) <= 1e-3 * fabs(e_ref.total) + 0.05);
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
    int rc = test_vk_open("test_md_trajectory", &ctx);
    if (rc >= 0)
        return rc;
    vkmd_system water = {0}, villin = {0};
    CHECK_OK(vkmd_water_box_build(216, VKMD_WATER_BOX_DEFAULT_SEED, &water));
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/villin_vac.prmtop", NULL, &villin));
    if (water.atom_count)
        run_case(ctx, "water:216 verlet", &water, VKMD_INTEGRATOR_VERLET, 1.0, 1, 100);
    if (villin.atom_count)
        run_case(ctx, "villin_vac verlet hbonds", &villin, VKMD_INTEGRATOR_VERLET, 2.0, 1, 100);
    if (water.atom_count)
        run_case(ctx, "water:216 langevin", &water, VKMD_INTEGRATOR_LANGEVIN, 2.0, 1, 25);
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_system_destroy(&water);
    vkmd_system_destroy(&villin);
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_md_trajectory");
}
