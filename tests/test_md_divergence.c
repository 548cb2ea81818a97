/* How far trajectories of the three position arithmetics drift apart
 * (issue 8: "1,000-step trajectory of water:216 in mixed vs single, same
 * seed: RMSD <= 0.1 A"). From one relaxed water:216 state, uploaded bit for
 * bit into each mode, 1,000 Langevin steps of 2 fs with the same seed (the
 * same Philox noise) in single (fp32 positions), mixed (split-float) and fixed
 * (split-int); positions compared every 50 steps with minimum images.
 *   - the three starts are identical (RMSD 0);
 *   - single vs mixed stays within 0.1 A for the first 250 steps (0.5 ps);
 *   - mixed vs fixed, whose positions both hold ~1e-9 A, separate at the
 *     same rate as single vs mixed (within 4x at the end): the growth is the
 *     dynamics' sensitivity to the last bit, not lost precision. That is why
 *     the 0.1 A after 1,000 steps holds for no pair of arithmetics;
 *     the test prints the 1,000-step figures and the step where each pair
 *     passes 0.1 A.
 * With VKMD_TEST_QUICK=1 (the sanitizer build) the runs stop at 400 steps
 * and only the first two checks apply. */
#include "test_md_common.h"
#include "tolerance.h"
#include "forces/positions.h"
#include "vk/context.h"

#define EVERY         50
#define MAX_SAMPLES   64
#define HORIZON_STEPS 250

enum { SINGLE, MIXED, FIXED, MODES };

static const int mode_positions[MODES] = {VKMD_POSITIONS_FP32, VKMD_POSITIONS_SPLIT_FLOAT,
                                          VKMD_POSITIONS_SPLIT_INT};
static const char *const mode_names[MODES] = {"single", "mixed", "fixed"};

/* Runs one mode from (x0, v0) and stores positions at steps 0, EVERY, ... */
static int trajectory(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_md_desc *d,
                      int positions, const double *x0, const double *v0, int steps, double **frames)
{
    vkmd_ff_settings fs = *d->settings;
    fs.positions = positions;
    vkmd_md_desc dv = *d;
    dv.settings = &fs;
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &dv, &md));
    if (!md)
        return 0;
    CHECK_OK(vkmd_md_set_state(ctx, md, x0, v0));
    int n = 0;
    CHECK_OK(vkmd_md_read(ctx, md, NULL, frames[n++], NULL));
    for (int k = 0; k < steps; k += EVERY) {
        if (vkmd_md_step(ctx, md, EVERY) != VKMD_OK) {
            CHECK_OK(VKMD_ERROR_VULKAN);
            break;
        }
        CHECK_OK(vkmd_md_read(ctx, md, NULL, frames[n++], NULL));
    }
    vkmd_md_destroy(ctx, md);
    return n;
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int rc = test_vk_open("test_md_divergence", &ctx);
    if (rc >= 0)
        return rc;
    const int quick = test_quick();
    const int steps = quick ? 400 : 1000;
    vkmd_system sys = {0};
    vkmd_ff_settings s = {0};
    water216_setup(&sys, &s);
    const vkmd_md_desc d = {.settings = &s,
                            .integrator = VKMD_INTEGRATOR_LANGEVIN,
                            .dt_fs = 2.0,
                            .temperature_k = 300,
                            .friction_per_ps = 1,
                            .seed = 2026,
                            .max_batch_steps = EVERY};
    const size_t n3 = 3 * (size_t)sys.atom_count;
    double *x0 = malloc(sizeof *x0 * n3), *v0 = malloc(sizeof *v0 * n3);
    relax_start(ctx, &sys, &d, quick ? 100 : 500, x0, v0);

    double *frames[MODES][MAX_SAMPLES];
    int n[MODES];
    for (int m = 0; m < MODES; ++m) {
        for (int k = 0; k < MAX_SAMPLES; ++k)
            frames[m][k] = calloc(n3, sizeof(double));
        n[m] = trajectory(ctx, &sys, &d, mode_positions[m], x0, v0, steps, frames[m]);
    }
    const int samples = n[SINGLE] < n[MIXED] ? (n[SINGLE] < n[FIXED] ? n[SINGLE] : n[FIXED])
                                             : (n[MIXED] < n[FIXED] ? n[MIXED] : n[FIXED]);
    CHECK_MSG(samples == steps / EVERY + 1, "%d samples of %d", samples, steps / EVERY + 1);

    printf("water:216, Langevin 2 fs, 1/ps, 300 K, seed %llu, same start and noise in every mode\n",
           (unsigned long long)d.seed);
    printf("%6s %8s  %-24s %-24s %-24s\n", "step", "t (ps)", "single vs mixed RMSD (max)",
           "mixed vs fixed RMSD (max)", "single vs fixed RMSD (max)");
    const int pairs[3][2] = {{SINGLE, MIXED}, {MIXED, FIXED}, {SINGLE, FIXED}};
    double last[3] = {0}, first_rms[3] = {0};
    int crossed[3] = {-1, -1, -1};
    for (int k = 0; k < samples; ++k) {
        const int step = k * EVERY;
        printf("%6d %8.2f ", step, step * d.dt_fs / 1000.0);
        for (int p = 0; p < 3; ++p) {
            double worst;
            const double r = md_rmsd(&sys, frames[pairs[p][0]][k], frames[pairs[p][1]][k], &worst);
            printf(" %10.3e A (%9.3e)  ", r, worst);
            if (k == 0)
                first_rms[p] = r;
            if (crossed[p] < 0 && r > TOL_HORIZON_A)
                crossed[p] = step;
            if (p == 0 && step <= HORIZON_STEPS)
                CHECK_MSG(r <= TOL_HORIZON_A, "single vs mixed RMSD %.3e A at step %d (limit %g A)",
                          r, step, TOL_HORIZON_A);
            last[p] = r;
        }
        printf("\n");
    }
    for (int p = 0; p < 3; ++p) {
        CHECK_MSG(first_rms[p] == 0, "%s vs %s start differs: %.3e A", mode_names[pairs[p][0]],
                  mode_names[pairs[p][1]], first_rms[p]);
        if (crossed[p] >= 0)
            printf("%s vs %s: RMSD passes %.1f A at step %d (%.2f ps)\n", mode_names[pairs[p][0]],
                   mode_names[pairs[p][1]], TOL_HORIZON_A, crossed[p],
                   crossed[p] * d.dt_fs / 1000.0);
        else
            printf("%s vs %s: RMSD stays within %.1f A for all %d steps\n", mode_names[pairs[p][0]],
                   mode_names[pairs[p][1]], TOL_HORIZON_A, steps);
    }
    printf("after %d steps: single vs mixed %.3e A, mixed vs fixed %.3e A (issue 8 asks <= 0.1 A "
           "for single vs mixed; this test requires it through step %d)\n",
           steps, last[0], last[1], HORIZON_STEPS);
    if (!quick) {
        /* Both pairs are chaotic separations from last-bit differences: the
         * two precise arithmetics part as fast as fp32 and split-float do. */
        const double ratio = last[1] / last[0];
        printf("mixed-vs-fixed / single-vs-mixed at step %d: %.2f (chaos if within 0.25..4)\n",
               steps, ratio);
        CHECK_MSG(ratio >= 0.25 && ratio <= 4, "divergence ratio %.2f", ratio);
    }
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    for (int m = 0; m < MODES; ++m)
        for (int k = 0; k < MAX_SAMPLES; ++k)
            free(frames[m][k]);
    free(x0);
    free(v0);
    vkmd_system_destroy(&sys);
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_md_divergence");
}
