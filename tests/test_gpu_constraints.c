/* GPU constraints (engine/sim/sim_constraints.c, shaders/constraints.comp)
 * against the double-precision reference
 * (vkmd_host_constraints_positions / _velocities / _violation):
 *   - water:216 (SETTLE), water:216 with flexible water (O-H clusters only),
 *     villin in vacuum (H-bond clusters of 1..3 hydrogens, staged buffers),
 *     and water:216 moved 64 A away from the origin;
 *   - from a constrained reference state, every coordinate perturbed by up
 *     to 0.05 A and random velocities: positions (and the velocity
 *     correction (x_c - x_u) / dt) against the reference; distance
 *     violations after the pass (water max |r - d| <= 1e-5 A, clusters
 *     within the tolerance); velocity constraint against the reference and
 *     the relative velocity left along every constraint;
 *   - a set without constraints records nothing and changes nothing;
 *   - invalid arguments are refused; no validation error.
 * The reference sees the same fp32-rounded inputs and the masses the device
 * sees (1 / float(1 / m)), so the comparison measures the passes'
 * arithmetic, and it iterates its clusters to 1e-12 (the exact solution). */
#include "testlib.h"
#include "tolerance.h"
#include "forces/positions.h"
#include "io/load.h"
#include "ref/ref_md.h"
#include "sim/sim_constraints.h"
#include "system/constraints.h"
#include "vk/barrier.h"
#include "vk/command.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PERTURB_A 0.05 /* max displacement per coordinate from the reference state */
#define VEL_A_FS  0.02 /* velocity components uniform in +-this, A/fs */
#define DT_FS     2.0  /* for the velocity correction */

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static double rnd(void) /* uniform [0, 1) */
{
    return test_uniform(&rng_state);
}

static double rnd_range(double a, double b)
{
    return a + (b - a) * rnd();
}

static double to_f32(double x)
{
    return (double)(float)x;
}

/* Device buffers of one case and host mirrors (float values as double). */
typedef struct gpu_state {
    vkmd_vk_buffer pos, ref, vel;
} gpu_state;

static void upload_vec4(vkmd_vk_context *ctx, vkmd_vk_buffer *buf, const double *xyz,
                        const double *w, int32_t n)
{
    float *p = calloc(4 * (size_t)n, sizeof *p);
    for (int32_t i = 0; i < n; ++i) {
        for (int c = 0; c < 3; ++c)
            p[4 * i + c] = (float)xyz[3 * i + c];
        p[4 * i + 3] = w ? (float)w[i] : 0.0f;
    }
    CHECK_OK(vkmd_vk_buffer_upload(ctx, buf, 0, p, 16 * (VkDeviceSize)n));
    free(p);
}

static void readback_vec4(vkmd_vk_context *ctx, const vkmd_vk_buffer *buf, double *xyz, int32_t n)
{
    CHECK_OK(vkmd_positions_readback(ctx, buf, xyz, n));
}

/* Records the position (mode 0, with dt) or velocity (mode 1) constraint,
 * submits and waits. */
static void run_gpu(vkmd_vk_context *ctx, const vkmd_sim_constraints *c, int mode, float dt_fs)
{
    vkmd_vk_cmd cmd = {0};
    CHECK_OK(vkmd_vk_cmd_create(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_begin(ctx, &cmd));
    if (mode == 0)
        vkmd_sim_constraints_record_positions(c, cmd.cb, dt_fs);
    else
        vkmd_sim_constraints_record_velocities(c, cmd.cb);
    vkmd_vk_barrier_compute_to_transfer(cmd.cb);
    vkmd_vk_barrier_device_to_host(cmd.cb);
    CHECK_OK(vkmd_vk_cmd_end(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_submit_wait(ctx, &cmd));
    vkmd_vk_cmd_destroy(ctx, &cmd);
}

static double max_abs(const double *a, int n)
{
    double m = 0;
    for (int i = 0; i < n; ++i)
        m = fmax(m, fabs(a[i]));
    return m;
}

/* Largest |(v_j - v_i) . e_ij| over every constraint, A/fs. */
static double max_bond_velocity(const vkmd_constraint_set *set, const double *x, const double *v)
{
    double worst = 0;
    for (int32_t w = 0; w < set->water_count; ++w) {
        const vkmd_water *wt = &set->waters[w];
        const int32_t pairs[6] = {wt->o, wt->h1, wt->o, wt->h2, wt->h1, wt->h2};
        for (int k = 0; k < 3; ++k) {
            int32_t i = pairs[2 * k], j = pairs[2 * k + 1];
            double e[3], r = 0, u = 0;
            for (int c = 0; c < 3; ++c) {
                e[c] = x[3 * j + c] - x[3 * i + c];
                r += e[c] * e[c];
            }
            for (int c = 0; c < 3; ++c)
                u += e[c] * (v[3 * j + c] - v[3 * i + c]);
            worst = fmax(worst, fabs(u) / sqrt(r));
        }
    }
    for (int32_t n = 0; n < set->cluster_count; ++n) {
        const vkmd_hcluster *cl = &set->clusters[n];
        for (int32_t k = 0; k < cl->h_count; ++k) {
            int32_t i = cl->center, j = cl->h[k];
            double r = 0, u = 0;
            for (int c = 0; c < 3; ++c) {
                double e = x[3 * j + c] - x[3 * i + c];
                r += e * e;
                u += e * (v[3 * j + c] - v[3 * i + c]);
            }
            worst = fmax(worst, fabs(u) / sqrt(r));
        }
    }
    return worst;
}

/* One system: constrained reference state, perturbation, GPU vs reference. */
static void compare(vkmd_vk_context *ctx, const char *name, const vkmd_system *sys,
                    const vkmd_constraint_set *set, double gpu_tol, int force_staging,
                    double water_limit_a)
{
    const int32_t n = sys->atom_count;
    const size_t n3 = 3 * (size_t)n;
    const double tol = gpu_tol > 0 ? gpu_tol : 1e-5; /* 0: the pass's default */
    /* a cluster stops anywhere below tol: up to tol * d (~1.1 A) from the exact solution */
    const double pos_limit = fmax(TOL_CONSTRAINT_POS_A, 2 * tol);
    printf("== %s: %d atoms, %d waters, %d clusters, %d constraints, tol %g%s\n", name, n,
           set->water_count, set->cluster_count, set->constraint_count, tol,
           force_staging ? ", staged buffers" : "");
    double *mass = calloc(n, sizeof *mass), *inv_m = calloc(n, sizeof *inv_m);
    double *x0 = calloc(n3, sizeof *x0), *x1 = calloc(n3, sizeof *x1);
    double *xr = calloc(n3, sizeof *xr), *xg = calloc(n3, sizeof *xg);
    double *v0 = calloc(n3, sizeof *v0), *vr = calloc(n3, sizeof *vr);
    double *vg = calloc(n3, sizeof *vg), *diff = calloc(n3, sizeof *diff);
    /* the masses the device uses: velocities.w = float(1 / m) */
    for (int32_t i = 0; i < n; ++i) {
        inv_m[i] = to_f32(1.0 / sys->atoms[i].mass);
        mass[i] = 1.0 / inv_m[i];
    }
    /* constrained reference state, then rounded to float as the device holds it */
    memcpy(x0, sys->positions, n3 * sizeof *x0);
    CHECK_OK(vkmd_host_constraints_positions(set, mass, sys->positions, x0, NULL, 0, 1e-12));
    for (size_t i = 0; i < n3; ++i) {
        x0[i] = to_f32(x0[i]);
        x1[i] = to_f32(x0[i] + rnd_range(-PERTURB_A, PERTURB_A));
        v0[i] = to_f32(rnd_range(-VEL_A_FS, VEL_A_FS));
    }
    double w0, h0;
    vkmd_host_constraints_violation(set, x1, &w0, &h0);
    printf("  perturbed: water max |r - d| %.3e A, cluster max |r - d| / d %.3e\n", w0, h0);

    gpu_state g = {0};
    CHECK_OK(vkmd_positions_create(ctx, n, force_staging, &g.pos));
    CHECK_OK(vkmd_positions_create(ctx, n, force_staging, &g.ref));
    const vkmd_vk_buffer_desc vd = {
        .size = 16 * (VkDeviceSize)n, .force_staging = force_staging, .name = "velocities"};
    CHECK_OK(vkmd_vk_buffer_create(ctx, &vd, &g.vel));
    upload_vec4(ctx, &g.pos, x1, NULL, n);
    upload_vec4(ctx, &g.ref, x0, NULL, n);
    upload_vec4(ctx, &g.vel, v0, inv_m, n);

    vkmd_sim_constraints *c = NULL;
    const vkmd_sim_constraints_desc desc = {.set = set,
                                            .positions = &g.pos,
                                            .positions_ref = &g.ref,
                                            .velocities = &g.vel,
                                            .tol = gpu_tol,
                                            .force_staging = force_staging};
    CHECK_OK(vkmd_sim_constraints_create(ctx, sys, &desc, &c));
    if (!c)
        goto done;
    CHECK(vkmd_sim_constraints_dispatch_count(c) ==
          (uint32_t)(set->water_count > 0 || set->cluster_count > 0)); /* both kinds in one */

    /* ---- positions (+ velocity correction) ---- */
    run_gpu(ctx, c, 0, (float)DT_FS);
    readback_vec4(ctx, &g.pos, xg, n);
    readback_vec4(ctx, &g.vel, vg, n);
    memcpy(xr, x1, n3 * sizeof *xr);
    memcpy(vr, v0, n3 * sizeof *vr);
    CHECK_OK(vkmd_host_constraints_positions(set, mass, x0, xr, vr, DT_FS, 1e-12));
    double pos_err = max_abs_error(xg, xr, (int)n3);
    double vel_err = max_abs_error(vg, vr, (int)n3);
    for (size_t i = 0; i < n3; ++i)
        diff[i] = vr[i] - v0[i];
    double dv_max = max_abs(diff, (int)n3);
    double wg_, hg_, wr_, hr_;
    vkmd_host_constraints_violation(set, xg, &wg_, &hg_);
    vkmd_host_constraints_violation(set, xr, &wr_, &hr_);
    printf("  positions: max |x_gpu - x_ref| %.3e A\n", pos_err);
    printf("  velocity correction (dt %g fs): max |v_gpu - v_ref| %.3e A/fs (max correction "
           "%.3e A/fs, relative %.3e)\n",
           DT_FS, vel_err, dv_max, dv_max > 0 ? vel_err / dv_max : 0.0);
    printf("  after GPU: water max |r - d| %.3e A, cluster max |r - d| / d %.3e "
           "(reference %.3e A, %.3e)\n",
           wg_, hg_, wr_, hr_);
    CHECK_MSG(pos_err <= pos_limit, "%s: position error %.3e A", name, pos_err);
    CHECK_MSG(vel_err <= pos_limit / DT_FS, "%s: velocity correction error %.3e", name, vel_err);
    CHECK_MSG(wg_ <= water_limit_a, "%s: water violation %.3e A > %.1e", name, wg_, water_limit_a);
    CHECK_MSG(hg_ <= tol + TOL_FP32_DIST_REL, "%s: cluster violation %.3e > tol %.1e + %.1e", name,
              hg_, tol, TOL_FP32_DIST_REL);

    /* ---- velocities: from fresh random velocities at the constrained positions ---- */
    for (size_t i = 0; i < n3; ++i)
        v0[i] = to_f32(rnd_range(-VEL_A_FS, VEL_A_FS));
    upload_vec4(ctx, &g.vel, v0, inv_m, n);
    run_gpu(ctx, c, 1, 0);
    readback_vec4(ctx, &g.vel, vg, n);
    memcpy(vr, v0, n3 * sizeof *vr);
    CHECK_OK(vkmd_host_constraints_velocities(set, mass, xg, vr, 1e-12));
    vel_err = max_abs_error(vg, vr, (int)n3);
    double vmax = max_abs(v0, (int)n3);
    double along0 = max_bond_velocity(set, xg, v0);
    double along_g = max_bond_velocity(set, xg, vg);
    double along_r = max_bond_velocity(set, xg, vr);
    printf("  velocity constraint: max |v_gpu - v_ref| %.3e A/fs (max |v| %.3e, relative "
           "%.3e)\n",
           vel_err, vmax, vel_err / vmax);
    printf("  relative velocity along constraints: before %.3e, GPU %.3e, reference %.3e A/fs\n",
           along0, along_g, along_r);
    CHECK_MSG(vel_err <= TOL_CONSTRAINT_VEL_REL * vmax, "%s: velocity constraint error %.3e", name,
              vel_err);
    CHECK_MSG(along_g <= TOL_CONSTRAINT_VEL_REL * vmax,
              "%s: relative velocity %.3e left along a constraint", name, along_g);
    /* positions untouched by the velocity pass */
    readback_vec4(ctx, &g.pos, x1, n);
    CHECK(max_abs_error(x1, xg, (int)n3) == 0);

done:
    vkmd_sim_constraints_destroy(ctx, c);
    vkmd_vk_buffer_destroy(ctx, &g.vel);
    vkmd_vk_buffer_destroy(ctx, &g.ref);
    vkmd_vk_buffer_destroy(ctx, &g.pos);
    free(mass);
    free(inv_m);
    free(x0);
    free(x1);
    free(xr);
    free(xg);
    free(v0);
    free(vr);
    free(vg);
    free(diff);
}

/* No constraints: nothing recorded, buffers untouched, no validation error. */
static void empty_set(vkmd_vk_context *ctx, const vkmd_system *sys)
{
    const int32_t n = sys->atom_count;
    const size_t n3 = 3 * (size_t)n;
    printf("== empty set (%d atoms)\n", n);
    vkmd_constraint_set set = {0};
    gpu_state g = {0};
    double *x = calloc(n3, sizeof *x), *v = calloc(n3, sizeof *v), *back = calloc(n3, sizeof *x);
    for (size_t i = 0; i < n3; ++i) {
        x[i] = to_f32(sys->positions[i]);
        v[i] = to_f32(rnd_range(-VEL_A_FS, VEL_A_FS));
    }
    CHECK_OK(vkmd_positions_create(ctx, n, 0, &g.pos));
    CHECK_OK(vkmd_positions_create(ctx, n, 0, &g.ref));
    CHECK_OK(vkmd_positions_create(ctx, n, 0, &g.vel));
    upload_vec4(ctx, &g.pos, x, NULL, n);
    upload_vec4(ctx, &g.ref, x, NULL, n);
    upload_vec4(ctx, &g.vel, v, NULL, n);
    vkmd_sim_constraints *c = NULL;
    const vkmd_sim_constraints_desc desc = {
        .set = &set, .positions = &g.pos, .positions_ref = &g.ref, .velocities = &g.vel};
    CHECK_OK(vkmd_sim_constraints_create(ctx, sys, &desc, &c));
    if (c) {
        CHECK(vkmd_sim_constraints_dispatch_count(c) == 0);
        run_gpu(ctx, c, 0, (float)DT_FS);
        run_gpu(ctx, c, 1, 0);
        readback_vec4(ctx, &g.pos, back, n);
        CHECK(max_abs_error(back, x, (int)n3) == 0);
        readback_vec4(ctx, &g.vel, back, n);
        CHECK(max_abs_error(back, v, (int)n3) == 0);
        printf("  dispatches %u, positions and velocities unchanged\n",
               vkmd_sim_constraints_dispatch_count(c));
    }
    vkmd_sim_constraints_destroy(ctx, c);

    /* invalid arguments */
    vkmd_sim_constraints_desc bad = desc;
    bad.tol = 0.2;
    CHECK(vkmd_sim_constraints_create(ctx, sys, &bad, &c) == VKMD_ERROR_INVALID_ARGUMENT && !c);
    bad.tol = -1e-5;
    CHECK(vkmd_sim_constraints_create(ctx, sys, &bad, &c) == VKMD_ERROR_INVALID_ARGUMENT && !c);
    bad = desc;
    bad.velocities = NULL;
    CHECK(vkmd_sim_constraints_create(ctx, sys, &bad, &c) == VKMD_ERROR_INVALID_ARGUMENT && !c);
    printf("  invalid arguments refused: %s\n", vkmd_last_error());
    vkmd_vk_buffer_destroy(ctx, &g.vel);
    vkmd_vk_buffer_destroy(ctx, &g.ref);
    vkmd_vk_buffer_destroy(ctx, &g.pos);
    free(x);
    free(v);
    free(back);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_constraints", &ctx);
    if (early >= 0)
        return early;

    vkmd_system water = {0};
    vkmd_constraint_set set = {0};
    CHECK_OK(vkmd_system_load("water:216", NULL, &water));
    if (water.positions) {
        CHECK_OK(vkmd_constraints_build(&water, 1, 1, &set));
        compare(ctx, "water:216, SETTLE", &water, &set, 1e-5, 0, TOL_CONSTRAINT_WATER_A);
        vkmd_constraints_destroy(&set);

        CHECK_OK(vkmd_constraints_build(&water, 0, 1, &set));
        compare(ctx, "water:216, flexible (O-H clusters)", &water, &set, 1e-6, 0,
                TOL_CONSTRAINT_WATER_A);
        vkmd_constraints_destroy(&set);

        /* far from the origin the fp32 coordinates themselves are coarser
         * (ulp 7.6e-6 A at 64..128 A); the solve is relative, only the
         * write-back rounds there */
        for (int32_t i = 0; i < 3 * water.atom_count; ++i)
            water.positions[i] += 64.0;
        CHECK_OK(vkmd_constraints_build(&water, 1, 1, &set));
        compare(ctx, "water:216 moved by 64 A, SETTLE", &water, &set, 1e-5, 0,
                TOL_CONSTRAINT_WATER_FAR_A);
        vkmd_constraints_destroy(&set);
    }
    vkmd_system_destroy(&water);

    vkmd_system villin = {0};
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/villin_vac.prmtop",
                              VKMD_TEST_DATA_DIR "/villin_vac.inpcrd", &villin));
    if (villin.positions) {
        CHECK_OK(vkmd_constraints_build(&villin, 1, 1, &set));
        compare(ctx, "villin (vacuum), H-bond clusters", &villin, &set, 1e-6, 1,
                TOL_CONSTRAINT_WATER_A);
        compare(ctx, "villin (vacuum), H-bond clusters, default tolerance", &villin, &set, 0, 0,
                TOL_CONSTRAINT_WATER_A);
        vkmd_constraints_destroy(&set);
        empty_set(ctx, &villin);
    }
    vkmd_system_destroy(&villin);

    uint32_t errors = vkmd_vk_context_validation_errors(ctx);
    printf("validation errors: %u (warnings %u)\n", errors,
           vkmd_vk_context_validation_warnings(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_constraints");
}
