/* The body shared by test_gpu_minimize.c (no constraints) and
 * test_gpu_minimize_constrained.c: FIRE minimisation on the device
 * (engine/sim/minimize.h) against the double-precision reference FIRE
 * (engine/ref/ref_minimize.h), both from the same float-rounded start:
 *   - the energy after the first few iterations agrees closely (both paths
 *     take the same FIRE decisions there; only float vs double arithmetic
 *     differs);
 *   - both converge to the force tolerance, the final energies agree within
 *     a stated tolerance (the paths part slowly, and each may stop in a
 *     nearby minimum of its own), and the final energy lies clearly below
 *     the initial one;
 *   - the device minimum checked in double: the reference's energy and
 *     (constrained) max force at the device's final positions, and with
 *     constraints how well they hold there;
 *   - (periodic systems) a repeated device run gives the same bits, and a
 *     neighbour list created far too small overflows, is grown and the run
 *     repeated: the same result as with the estimated capacity.
 * Tolerances and why are at each check. */
#ifndef VKMD_TESTS_GPU_MINIMIZE_COMMON_H
#define VKMD_TESTS_GPU_MINIMIZE_COMMON_H

#include "testlib.h"
#include "tolerance.h"
#include "core/units.h"
#include "forces/forcefield.h"
#include "forces/positions.h"
#include "io/load.h"
#include "ref/ref.h"
#include "ref/ref_md.h"
#include "ref/ref_minimize.h"
#include "sim/sim_constraints.h"
#include "sim/minimize.h"
#include "vk/buffer.h"
#include "vk/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Uniform in [-amp, amp] per coordinate, deterministic (xorshift64*). */
static void perturb(double *xyz, int32_t n, double amp)
{
    uint64_t st = 0x2545F4914F6CDD1Dull;
    for (int32_t i = 0; i < 3 * n; ++i) {
        st ^= st >> 12;
        st ^= st << 25;
        st ^= st >> 27;
        const double u = (double)((st * 0x2545F4914F6CDD1Dull) >> 11) * 0x1.0p-53;
        xyz[i] += amp * (2 * u - 1);
    }
}

static void print_progress(void *user, int32_t iteration, double energy, double max_force)
{
    printf("   %s iteration %5d: E %.6f kcal/mol, max |f| %.4g kcal/mol/A\n", (const char *)user,
           iteration, energy, max_force);
}

typedef struct fixture {
    vkmd_system sys;
    vkmd_ff_settings s;
    vkmd_forcefield *ff;
    vkmd_vk_buffer positions_ref, velocities;
    double *start; /* [3N] float-rounded start */
    const char *spec;
    double perturb_a;
    int rigid_water, hbonds; /* the constraints (vkmd_constraints_build) */
    vkmd_constraint_set set; /* zeroed without constraints */
    vkmd_sim_constraints *c; /* NULL without constraints */
} fixture;

static int fixture_open(vkmd_vk_context *ctx, const char *spec, double perturb_a,
                        uint32_t max_neighbors, int rigid_water, int hbonds, fixture *fx)
{
    memset(fx, 0, sizeof *fx);
    fx->spec = spec;
    fx->perturb_a = perturb_a;
    fx->rigid_water = rigid_water;
    fx->hbonds = hbonds;
    CHECK_OK(vkmd_system_load(spec, NULL, &fx->sys));
    if (!fx->sys.positions)
        return 0;
    const int32_t n = fx->sys.atom_count;
    if (perturb_a > 0)
        perturb(fx->sys.positions, n, perturb_a);
    for (int32_t i = 0; i < 3 * n; ++i)
        fx->sys.positions[i] = (double)(float)fx->sys.positions[i];
    fx->start = malloc(3 * (size_t)n * sizeof *fx->start);
    memcpy(fx->start, fx->sys.positions, 3 * (size_t)n * sizeof *fx->start);
    CHECK_OK(vkmd_ff_settings_resolve(&fx->s, &fx->sys));
    const vkmd_forcefield_desc fd = {.settings = &fx->s, .max_neighbors = max_neighbors};
    CHECK_OK(vkmd_forcefield_create(ctx, &fx->sys, &fd, &fx->ff));
    CHECK_OK(vkmd_positions_create(ctx, n, 0, &fx->positions_ref));
    CHECK_OK(vkmd_positions_create(ctx, n, 0, &fx->velocities));
    float *v = calloc(4 * (size_t)n, sizeof *v);
    for (int32_t i = 0; i < n; ++i)
        v[4 * i + 3] = (float)(1.0 / fx->sys.atoms[i].mass);
    CHECK_OK(vkmd_vk_buffer_upload(ctx, &fx->velocities, 0, v, 16 * (VkDeviceSize)n));
    free(v);
    if (!fx->ff)
        return 0;
    if (rigid_water || hbonds) {
        CHECK_OK(vkmd_constraints_build(&fx->sys, rigid_water, hbonds, &fx->set));
        const vkmd_sim_constraints_desc cd = {.set = &fx->set,
                                              .positions = vkmd_forcefield_positions(fx->ff),
                                              .positions_ref = &fx->positions_ref,
                                              .velocities = &fx->velocities};
        CHECK_OK(vkmd_sim_constraints_create(ctx, &fx->sys, &cd, &fx->c));
        return fx->c != NULL;
    }
    return 1;
}

static void fixture_close(vkmd_vk_context *ctx, fixture *fx)
{
    vkmd_sim_constraints_destroy(ctx, fx->c);
    vkmd_constraints_destroy(&fx->set);
    vkmd_vk_buffer_destroy(ctx, &fx->velocities);
    vkmd_vk_buffer_destroy(ctx, &fx->positions_ref);
    vkmd_forcefield_destroy(ctx, fx->ff);
    vkmd_system_destroy(&fx->sys);
    free(fx->start);
}

/* A device run from the fixture's start; final positions into out_pos
 * (may be NULL). */
static vkmd_result gpu_run(vkmd_vk_context *ctx, fixture *fx, const vkmd_minimize_desc *d,
                           vkmd_minimize_result *out, double *out_pos)
{
    vkmd_result res = vkmd_forcefield_upload_positions(ctx, fx->ff, fx->start);
    if (res == VKMD_OK)
        res = vkmd_minimize_run(ctx, fx->ff, fx->c, &fx->positions_ref, NULL, &fx->velocities, d,
                                out);
    if (res == VKMD_OK && out_pos) {
        const int32_t n = fx->sys.atom_count;
        float *p = malloc(16 * (size_t)n);
        res = vkmd_vk_buffer_readback(ctx, vkmd_forcefield_positions(fx->ff), 0, p,
                                      16 * (VkDeviceSize)n);
        for (int32_t i = 0; i < n; ++i)
            for (int c = 0; c < 3; ++c)
                out_pos[3 * i + c] = p[4 * i + c];
        free(p);
    }
    return res;
}

static vkmd_result ref_run(fixture *fx, const vkmd_minimize_desc *d, vkmd_minimize_result *out,
                           double *out_pos)
{
    memcpy(out_pos, fx->start, 3 * (size_t)fx->sys.atom_count * sizeof *out_pos);
    return ref_minimize_run(&fx->sys, &fx->s, fx->c ? &fx->set : NULL, d, out_pos, out);
}

static void print_result(const char *who, const vkmd_minimize_result *r, double seconds)
{
    printf("   %-6s %5d iterations (%d batches, %d list regrowths): E %.6f -> %.6f kcal/mol, "
           "max |f| %.4g, RMS %.4g kcal/mol/A, %s, %.2f s\n",
           who, r->iterations, r->batches, r->list_regrowths, r->energy_initial, r->energy_final,
           r->max_force, r->rms_force, r->converged ? "converged" : "NOT converged", seconds);
}

/* Sum of the magnitudes of the energy terms at the start: the scale fp32
 * terms resolve a total to (villin in vacuum: -65 kcal/mol out of terms
 * summing to ~5,900 in magnitude; see test_gpu_forcefield_common.h). */
static double energy_scale(const fixture *fx)
{
    vkmd_energy e;
    CHECK_OK(vkmd_ref_compute(&fx->sys, &fx->s, &e, NULL));
    return fabs(e.bond) + fabs(e.angle) + fabs(e.dihedral) + fabs(e.lj) + fabs(e.coulomb_real) +
           fabs(e.coulomb_recip) + fabs(e.coulomb_self) + fabs(e.coulomb_excl) + fabs(e.coulomb14) +
           fabs(e.coulomb_net_charge);
}

/* Early iterations on both sides, a bitwise repeat, and (periodic systems)
 * the same run with a neighbour list created too small. */
static void run_early(vkmd_vk_context *ctx, fixture *fx, double force_tol, int32_t iterations)
{
    const int32_t n = fx->sys.atom_count;
    double *pg = calloc(3 * (size_t)n, sizeof *pg), *pr = calloc(3 * (size_t)n, sizeof *pr);
    double *pg2 = calloc(3 * (size_t)n, sizeof *pg2);
    vkmd_minimize_result rg, rr, rg2;
    const vkmd_minimize_desc d = {.force_tol = force_tol, .max_iterations = iterations};
    CHECK_OK(gpu_run(ctx, fx, &d, &rg, pg));
    CHECK_OK(ref_run(fx, &d, &rr, pr));
    printf("   after %d iterations:\n", iterations);
    print_result("device", &rg, 0);
    print_result("ref", &rr, 0);
    CHECK(rg.iterations == iterations && rr.iterations == iterations);
    /* The start: the force field's own criterion (TOL_FP32_TOTAL_REL of the
     * summed term magnitudes). */
    const double scale = energy_scale(fx);
    check_close("initial energy, device vs reference (kcal/mol)", rg.energy_initial,
                rr.energy_initial, 0, TOL_FP32_TOTAL_REL * scale);
    /* Early iterations: the same FIRE decisions on both sides, so only the
     * float forces separate the paths; 10x the start's allowance. */
    check_close("energy after the early iterations, device vs reference (kcal/mol)",
                rg.energy_final, rr.energy_final, 0,
                TOL_MIN_EARLY_ENERGY_FACTOR * TOL_FP32_TOTAL_REL * scale);
    printf("   positions after %d iterations: max |x_dev - x_ref| %.3g A\n", iterations,
           max_abs_error(pg, pr, 3 * n));
    CHECK(max_abs_error(pg, pr, 3 * n) < TOL_MIN_EARLY_POSITIONS_A);

    if (fx->sys.box.periodic) {
        /* Repeats (periodic systems only, for the test's time: they have
         * the neighbour list and PME too). */
        CHECK_OK(gpu_run(ctx, fx, &d, &rg2, pg2));
        const int same = memcmp(pg, pg2, 3 * (size_t)n * sizeof *pg) == 0;
        printf("   repeat: E %.9f (first run %.9f), positions %s\n", rg2.energy_final,
               rg.energy_final, same ? "identical" : "DIFFER");
        CHECK(rg2.iterations == rg.iterations && rg2.energy_final == rg.energy_final && same);

        /* A list of 16 entries per cluster overflows at the first
         * evaluation: restored, grown, repeated; the sums are fixed point,
         * so the result is the same bits as with the estimated capacity. */
        fixture small;
        if (fixture_open(ctx, fx->spec, fx->perturb_a, 16, fx->rigid_water, fx->hbonds, &small)) {
            memcpy(small.start, fx->start, 3 * (size_t)n * sizeof *small.start);
            CHECK_OK(gpu_run(ctx, &small, &d, &rg2, pg2));
            const int same2 = memcmp(pg, pg2, 3 * (size_t)n * sizeof *pg) == 0;
            printf("   list of 16 entries per cluster: %d regrowths, E %.9f, positions %s\n",
                   rg2.list_regrowths, rg2.energy_final, same2 ? "identical" : "DIFFER");
            CHECK(rg2.list_regrowths >= 1);
            CHECK(rg2.energy_final == rg.energy_final && same2);
        }
        fixture_close(ctx, &small);
    }
    free(pg);
    free(pg2);
    free(pr);
}

/* Both minimisers to convergence (see the file comment). */
static void run_system(vkmd_vk_context *ctx, const char *label, const char *spec, double perturb_a,
                       int rigid_water, int hbonds, double force_tol, int32_t early_iterations,
                       double final_rel_tol)
{
    fixture fx;
    if (!fixture_open(ctx, spec, perturb_a, 0, rigid_water, hbonds, &fx)) {
        fixture_close(ctx, &fx);
        return;
    }
    const int32_t n = fx.sys.atom_count;
    printf("== %s: %d atoms, %s, start perturbed by up to %.2f A per coordinate, force tol %.3f "
           "kcal/mol/A\n",
           label, n, fx.sys.box.periodic ? "periodic" : "vacuum", perturb_a, force_tol);
    if (fx.c)
        printf("   constraints: %d SETTLE waters, %d H clusters, %d distances\n",
               fx.set.water_count, fx.set.cluster_count, fx.set.constraint_count);
    run_early(ctx, &fx, force_tol, early_iterations);

    double *pg = calloc(3 * (size_t)n, sizeof *pg), *pr = calloc(3 * (size_t)n, sizeof *pr);
    vkmd_minimize_result rg, rr;
    vkmd_minimize_desc d = {
        .force_tol = force_tol, .progress = print_progress, .progress_user = "device"};
    double t0 = now_s();
    CHECK_OK(gpu_run(ctx, &fx, &d, &rg, pg));
    double t1 = now_s();
    d.progress = NULL;
    CHECK_OK(ref_run(&fx, &d, &rr, pr));
    double t2 = now_s();
    printf("   to convergence:\n");
    print_result("device", &rg, t1 - t0);
    print_result("ref", &rr, t2 - t1);
    CHECK(rg.converged && rr.converged);
    CHECK(rg.max_force < force_tol && rr.max_force < force_tol);
    /* The device's minimum is as deep as the reference's: its final energy
     * no higher than the reference's by more than the tolerance. Past the
     * early iterations the two paths are two roundings of a chaotic descent
     * and may end in different nearby minima; the device one ending lower
     * is a deeper minimum, not an error (villin in vacuum, when the vacuum
     * pairs moved to tiles: device -1017.82, reference -1012.14 kcal/mol,
     * the device minimum confirmed in double below). */
    {
        const double tol = (test_same_bits_device(ctx) ? final_rel_tol : TOL_MIN_FINAL_GPU_REL) *
                           fabs(rr.energy_final);
        const int ok = rg.energy_final <= rr.energy_final + tol;
        printf("  final energy, device %.6f vs reference %.6f kcal/mol: device higher by %.3g "
               "(limit %.3g) %s\n",
               rg.energy_final, rr.energy_final, rg.energy_final - rr.energy_final, tol,
               ok ? "ok" : "FAIL");
        CHECK(ok);
    }
    const double drop_g = rg.energy_initial - rg.energy_final;
    const double drop_r = rr.energy_initial - rr.energy_final;
    printf("   energy drop: device %.4f, reference %.4f kcal/mol\n", drop_g, drop_r);
    /* FIRE is not monotone step by step; over a run the drop must be clear. */
    CHECK(drop_g > 100 && drop_r > 100);

    /* The device minimum checked in double: the reference's energy and max
     * force at the device's final positions (with constraints the force
     * m a_c, a_c = F/m projected by the velocity constraint, as FIRE uses). */
    vkmd_system at = fx.sys;
    at.positions = pg;
    vkmd_energy e;
    double *f = calloc(3 * (size_t)n, sizeof *f);
    CHECK_OK(vkmd_ref_compute(&at, &fx.s, &e, f));
    if (fx.c) {
        double *mass = calloc((size_t)n, sizeof *mass);
        for (int32_t i = 0; i < n; ++i) {
            mass[i] = fx.sys.atoms[i].mass;
            for (int k = 0; k < 3; ++k)
                f[3 * i + k] /= mass[i];
        }
        CHECK_OK(vkmd_host_constraints_velocities(&fx.set, mass, pg, f, 1e-12));
        for (int32_t i = 0; i < n; ++i)
            for (int k = 0; k < 3; ++k)
                f[3 * i + k] *= mass[i];
        double wv, hv, wr, hr;
        vkmd_host_constraints_violation(&fx.set, pg, &wv, &hv);
        vkmd_host_constraints_violation(&fx.set, pr, &wr, &hr);
        printf("   constraints at the minimum: water max |r - d| %.3g A, cluster max |r - d| / d "
               "%.3g (reference run: %.3g A, %.3g)\n",
               wv, hv, wr, hr);
        /* the pass's tolerance (1e-5 relative) plus fp32 write-back rounding
         * (test_gpu_constraints: 4e-6 relative; 1e-5 A for SETTLE waters) */
        CHECK(wv <= TOL_MIN_WATER_VIOLATION_A && hv <= TOL_MIN_HBOND_VIOLATION_REL);
        free(mass);
    }
    double m2 = 0;
    for (int32_t i = 0; i < n; ++i)
        m2 = fmax(m2,
                  f[3 * i] * f[3 * i] + f[3 * i + 1] * f[3 * i + 1] + f[3 * i + 2] * f[3 * i + 2]);
    printf("   reference at the device minimum: E %.6f kcal/mol, max |F| %.4g kcal/mol/A\n",
           e.total, sqrt(m2));
    check_close("device final energy vs the reference's at the same positions (kcal/mol)",
                rg.energy_final, e.total, 0, TOL_FP32_TOTAL_REL * energy_scale(&fx));
    CHECK(sqrt(m2) < force_tol * 1.05);
    free(f);
    free(pg);
    free(pr);
    fixture_close(ctx, &fx);
}

#endif
