/* Energy conservation with virtual sites: velocity-Verlet MD of the TIP4P-Ew
 * box built at test time (tests/oracles/openmm_vsite.py: 308 rigid 4-site
 * waters, SETTLE on O-H-H, the extra point rebuilt every step, PME, 9 A)
 * against the rectangular TIP3P case (tests/data/water_box: 313 waters, same
 * 2.2 nm box, same settings). Each: 200 Langevin steps at 50/ps and 200 at
 * 1/ps (300 K, 2 fs) from the file's coordinates, then 1,000 NVE steps at
 * 2 fs, fp32 positions, total energy every 20 steps.
 *   - the 4-site drift is no worse than TIP3P's within two standard errors
 *     (block slopes), and below 0.1% of |E_total| over the run;
 *   - SETTLE holds (max O-H / H-H violation <= 1e-4 A at every sample) and
 *     every extra point sits on its frame at the end (O-EP 0.125 A).
 * Figures beside OpenMM's on the same systems: docs/VSITES.md. */
#include "test_md_common.h"
#include "tolerance.h"
#include "core/units.h"
#include "io/load.h"
#include "vk/context.h"

static double block_stderr(const series *s)
{
    const int m = s->n / 4;
    double b[4], mean = 0, var = 0;
    if (m < 3)
        return 0;
    for (int k = 0; k < 4; ++k) {
        const series part = {.t_ps = s->t_ps + k * m, .total = s->total + k * m, .n = m};
        b[k] = slope(&part);
        mean += b[k] / 4;
    }
    for (int k = 0; k < 4; ++k)
        var += (b[k] - mean) * (b[k] - mean) / 3;
    return sqrt(var) / 2;
}

/* Relaxes, equilibrates and runs NVE on `path`; returns the drift in
 * kcal/mol/ps, its standard error in *out_se. */
static double nve(vkmd_vk_context *ctx, const char *path, double *out_se)
{
    *out_se = 0;
    double drift = NAN;
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(path, NULL, &sys));
    if (!sys.positions)
        return drift;
    vkmd_ff_settings fs = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&fs, &sys));
    const vkmd_md_desc d = {.settings = &fs,
                            .integrator = VKMD_INTEGRATOR_LANGEVIN,
                            .dt_fs = 2.0,
                            .temperature_k = 300,
                            .friction_per_ps = 1,
                            .seed = 4242,
                            .max_batch_steps = SAMPLE_EVERY};
    const size_t n3 = 3 * (size_t)sys.atom_count;
    double *x0 = malloc(sizeof *x0 * n3), *v0 = malloc(sizeof *v0 * n3);
    relax_start(ctx, &sys, &d, 200, x0, v0);
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, &sys, &d, &md));
    if (md) {
        CHECK_OK(vkmd_md_set_state(ctx, md, x0, v0));
        run(ctx, md, 200, NULL);
        CHECK_OK(vkmd_md_read(ctx, md, NULL, x0, v0));
    }
    vkmd_md_destroy(ctx, md);
    md = NULL;
    vkmd_md_desc dv = d;
    dv.integrator = VKMD_INTEGRATOR_VERLET;
    dv.com_every = -1;
    CHECK_OK(vkmd_md_create(ctx, &sys, &dv, &md));
    if (md) {
        CHECK_OK(vkmd_md_set_state(ctx, md, x0, v0));
        series s = {0};
        const double worst = run(ctx, md, 1000, &s);
        if (s.n >= 2) {
            drift = slope(&s);
            const double len_ps = s.t_ps[s.n - 1] - s.t_ps[0];
            double mean_e = 0, mean_t = 0;
            for (int i = 0; i < s.n; ++i)
                mean_e += s.total[i] / s.n, mean_t += s.temp[i] / s.n;
            const double rel = fabs(drift * len_ps) / fabs(mean_e);
            *out_se = block_stderr(&s);
            printf("%s: %d atoms, %d sites, %lld dof; NVE 2 fs, %.1f ps: E_total %.3f kcal/mol, "
                   "mean T %.2f K, drift %.4f +- %.4f kcal/mol/ps = %.3e of |E_total| (limit "
                   "1e-3), %.4f kT/ns/dof; max water violation %.2e A (limit 1e-4)\n",
                   path, sys.atom_count, sys.vsite_count, (long long)vkmd_md_dof(md), len_ps,
                   mean_e, mean_t, drift, *out_se, rel,
                   drift * 1000.0 / (VKMD_BOLTZMANN_KCAL * mean_t * (double)vkmd_md_dof(md)),
                   worst);
            CHECK_MSG(rel < TOL_NVE_DRIFT_REL, "%s: drift %.3e of |E|", path, rel);
        }
        CHECK_MSG(worst <= TOL_MD_WATER_A, "%s: water violation %.3e A", path, worst);
        series_free(&s);
        /* Each extra point on its frame: O-EP at the prmtop's 0.125 A. */
        CHECK_OK(vkmd_md_read(ctx, md, NULL, x0, NULL));
        double worst_ep = 0;
        for (int32_t k = 0; k < sys.vsite_count; ++k) {
            double dd[3];
            ref_delta(&sys.box, x0 + 3 * sys.vsites[k].parents[0], x0 + 3 * sys.vsites[k].site, dd);
            worst_ep =
                fmax(worst_ep, fabs(sqrt(dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2]) - 0.125));
        }
        if (sys.vsite_count) {
            printf("  extra points: max |O-EP - 0.125 A| %.2e A (limit 1e-5)\n", worst_ep);
            CHECK(worst_ep <= 1e-5);
        }
    }
    vkmd_md_destroy(ctx, md);
    free(x0);
    free(v0);
    vkmd_system_destroy(&sys);
    return drift;
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int rc = test_vk_open("test_md_vsite_nve_generated", &ctx);
    if (rc >= 0)
        return rc;
    double se4 = 0, se3 = 0;
    const double d4 = nve(ctx, VKMD_TEST_GEN_DIR "/tip4pew_box.prmtop", &se4);
    const double d3 = nve(ctx, VKMD_TEST_DATA_DIR "/water_box.prmtop", &se3);
    const double tol = 2 * sqrt(se4 * se4 + se3 * se3);
    printf("drift |TIP4P-Ew| %.4f vs |TIP3P| %.4f kcal/mol/ps (allowance 2 sigma = %.4f)\n",
           fabs(d4), fabs(d3), tol);
    CHECK_MSG(fabs(d4) <= fabs(d3) + tol, "4-site drift %.4f > TIP3P %.4f + %.4f", d4, d3, tol);
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_md_vsite_nve_generated");
}
