/* Energy conservation of GPU velocity-Verlet MD on water:216 (rigid TIP3P,
 * SETTLE, PME, 9 A cutoff, plain LJ truncation as OpenMM's default): from a
 * state relaxed by 1,000 Langevin steps at 50/ps and equilibrated by 2,000 at
 * 1/ps (300 K, 2 fs), 10,000 NVE steps at 2 fs and again 10,000 at 1 fs.
 *   - total-energy drift (least-squares slope times the run length) below
 *     0.1% of |E_total|, printed also in kT/ns per degree of freedom;
 *   - SETTLE: max O-H / H-H violation <= 1e-4 A at every sample.
 * With VKMD_TEST_QUICK=1 (the sanitizer build) the runs are 20x shorter and
 * the drift is printed but not enforced. */
#include "test_md_common.h"
#include "core/units.h"
#include "forces/positions.h"
#include "vk/context.h"

static double nve(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_md_desc *d,
                  double dt_fs, int64_t steps, int quick, const double *x0, const double *v0,
                  int positions)
{
    vkmd_ff_settings fs = *d->settings;
    fs.positions = positions;
    vkmd_md_desc dv = *d;
    dv.settings = &fs;
    double drift = NAN;
    dv.integrator = VKMD_INTEGRATOR_VERLET;
    dv.dt_fs = dt_fs;
    dv.com_every = -1; /* NVE: momentum is conserved, nothing to remove */
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &dv, &md));
    if (!md)
        return drift;
    CHECK_OK(vkmd_md_set_state(ctx, md, x0, v0));
    series s = {0};
    const double worst = run(ctx, md, steps, &s);
    if (s.n >= 2) {
        const double b = slope(&s);
        const double len_ps = s.t_ps[s.n - 1] - s.t_ps[0];
        double mean_e = 0, mean_t = 0;
        for (int i = 0; i < s.n; ++i) {
            mean_e += s.total[i];
            mean_t += s.temp[i];
        }
        mean_e /= s.n;
        mean_t /= s.n;
        const double drift_rel = fabs(b * len_ps) / fabs(mean_e);
        const double per_dof =
            b * 1000.0 / (VKMD_BOLTZMANN_KCAL * mean_t * (double)vkmd_md_dof(md));
        printf("NVE %-11s positions, dt %.1f fs, %lld steps (%.1f ps): E_total %.3f kcal/mol, "
               "mean T %.2f K, drift %.4f kcal/mol/ps = %.3e of |E_total| over the run (limit "
               "1e-3), %.4f kT/ns/dof; max water violation %.2e A (limit 1e-4)\n",
               vkmd_positions_mode_name(positions), dt_fs, (long long)steps, len_ps, mean_e, mean_t,
               b, drift_rel, per_dof, worst);
        drift = b;
        if (!quick)
            CHECK_MSG(drift_rel < 1e-3, "NVE %.1f fs drift %.3e of |E|", dt_fs, drift_rel);
    }
    CHECK_MSG(worst <= 1e-4, "water violation %.3e A", worst);
    series_free(&s);
    vkmd_md_destroy(ctx, md);
    return drift;
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int rc = test_vk_open("test_md_nve", &ctx);
    if (rc >= 0)
        return rc;
    const int quick = test_quick();
    const int64_t scale = quick ? 20 : 1;
    vkmd_system sys = {0};
    vkmd_ff_settings s = {0};
    water216_setup(&sys, &s);
    const vkmd_md_desc d = {.settings = &s,
                            .integrator = VKMD_INTEGRATOR_LANGEVIN,
                            .dt_fs = 2.0,
                            .temperature_k = 300,
                            .friction_per_ps = 1,
                            .seed = 4242,
                            .max_batch_steps = SAMPLE_EVERY};
    const size_t n3 = 3 * (size_t)sys.atom_count;
    double *x0 = malloc(sizeof *x0 * n3), *v0 = malloc(sizeof *v0 * n3);
    relax_start(ctx, &sys, &d, 1000 / scale, x0, v0);
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, &sys, &d, &md));
    if (md) {
        CHECK_OK(vkmd_md_set_state(ctx, md, x0, v0));
        run(ctx, md, 2000 / scale, NULL);
        CHECK_OK(vkmd_md_read(ctx, md, NULL, x0, v0));
    }
    vkmd_md_destroy(ctx, md);
    for (int p = 0; p < 3; ++p) {
        nve(ctx, &sys, &d, 2.0, 10000 / scale, quick, x0, v0, p);
        nve(ctx, &sys, &d, 1.0, 10000 / scale, quick, x0, v0, p);
    }
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    free(x0);
    free(v0);
    vkmd_system_destroy(&sys);
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_md_nve");
}
