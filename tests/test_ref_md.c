/* Reference MD steps (engine/ref/ref_md.c) with the reference force
 * field and constraints.
 *   - water:216 (rigid, SETTLE; PME defaults) is first taken off its lattice
 *     by EQUIL_STEPS strongly damped Langevin steps (the built orientations
 *     are random: potential energy +1500 kcal/mol).
 *   - NVE from there: velocity Verlet, 1 fs, NVE_STEPS steps: the total
 *     energy's RMS fluctuation must stay below 2% of the kinetic energy's (a
 *     wrong kick, drift or constraint step moves it on the kinetic energy's
 *     scale); its drift is printed; constraints hold to 1e-10 A every step.
 *   - NVE on villin_vac (vacuum: every pair, no cutoff, so forces are exactly
 *     conservative) with H-bond clusters (M-SHAKE / RATTLE, tol 1e-10), at
 *     1 fs and 0.5 fs over the same 100 fs: the fluctuation below 2% of the
 *     kinetic energy's at 1 fs, and shrinking by 2.5..6x when dt halves
 *     (velocity Verlet's error is O(dt^2)).
 *   - Langevin middle on water:216: from rest and from 3x the kinetic
 *     energy, the mean temperature over the second half of LANGEVIN_STEPS
 *     steps is closer to the 300 K target than the start by half and within
 *     60 K; the same seed gives bit-identical positions and velocities,
 *     another seed different ones.
 *   - Langevin on free particles (no forces, no constraints, vacuum, 500
 *     atoms of three masses, gamma 200/ps): the mean kinetic temperature
 *     over 1900 steps must be the target within 1% for each mass (this fixes
 *     the noise amplitude's units, kB T / m in kcal/mol/amu times 4.184e-4 =
 *     A^2/fs^2; replacing v by the mean half-step velocity, v = (x' - x) / dt,
 *     would read (1 + c1) / 2 = 0.91 of the target here).
 *   - vkmd_constraints_dof for rigid water, with and without COM removal;
 *     vkmd_remove_com_velocity zeroes the momentum; vkmd_kinetic_energy units. */
#include "testlib.h"
#include "core/philox.h"
#include "core/units.h"
#include "ref/ref.h"
#include "ref/ref_md.h"
#include "system/constraints.h"
#include "io/load.h"
#include "system/water_box.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EQUIL_STEPS    150
#define NVE_STEPS      200
#define LANGEVIN_STEPS 100
#define REPEAT_STEPS   10

static double temperature(const vkmd_system *sys, const double *vel, int64_t dof)
{
    return 2 * vkmd_kinetic_energy(sys, vel) / ((double)dof * VKMD_BOLTZMANN_KCAL);
}

/* Maxwell-Boltzmann velocities at t_k from Philox stream 1, COM removed,
 * constrained. */
static void thermal_velocities(const vkmd_system *sys, const vkmd_constraint_set *set,
                               const double *mass, double t_k, uint64_t seed, double *vel)
{
    for (int32_t i = 0; i < sys->atom_count; ++i) {
        double g[3];
        vkmd_philox_gauss3(seed, 0, (uint32_t)i, 1, g);
        const double s = sqrt(VKMD_BOLTZMANN_KCAL * t_k / mass[i] * VKMD_ACCEL_PER_FORCE_MASS);
        for (int c = 0; c < 3; ++c)
            vel[3 * i + c] = s * g[c];
    }
    vkmd_remove_com_velocity(sys, vel);
    CHECK_OK(vkmd_host_constraints_velocities(set, mass, sys->positions, vel, 1e-10));
}

typedef struct water_md {
    vkmd_system sys;
    vkmd_constraint_set set;
    vkmd_ff_settings settings;
    double *mass, *pos, *vel, *f;
    int64_t dof;
} water_md;

static int water_md_open(water_md *w)
{
    memset(w, 0, sizeof *w);
    CHECK_OK(vkmd_water_box_build(216, VKMD_WATER_BOX_DEFAULT_SEED, &w->sys));
    CHECK_OK(vkmd_constraints_build(&w->sys, 1, 1, &w->set));
    CHECK_OK(vkmd_ff_settings_resolve(&w->settings, &w->sys));
    const int32_t n = w->sys.atom_count;
    w->mass = calloc((size_t)n, sizeof *w->mass);
    w->pos = calloc((size_t)3 * n, sizeof *w->pos);
    w->vel = calloc((size_t)3 * n, sizeof *w->vel);
    w->f = calloc((size_t)3 * n, sizeof *w->f);
    CHECK(w->mass && w->pos && w->vel && w->f);
    if (test_failures)
        return 0;
    for (int32_t i = 0; i < n; ++i)
        w->mass[i] = w->sys.atoms[i].mass;
    w->dof = vkmd_constraints_dof(&w->sys, &w->set, 1);
    return 1;
}

static void water_md_close(water_md *w)
{
    free(w->mass);
    free(w->pos);
    free(w->vel);
    free(w->f);
    vkmd_constraints_destroy(&w->set);
    vkmd_system_destroy(&w->sys);
}

/* pos from the built box, forces at it; vel at t_k (0: at rest). */
static vkmd_energy water_md_start(water_md *w, double t_k)
{
    const int32_t n = w->sys.atom_count;
    memcpy(w->pos, w->sys.positions, (size_t)3 * n * sizeof *w->pos);
    memset(w->vel, 0, (size_t)3 * n * sizeof *w->vel);
    if (t_k > 0)
        thermal_velocities(&w->sys, &w->set, w->mass, t_k, 7, w->vel);
    vkmd_energy e = {0};
    CHECK_OK(vkmd_ref_compute(&w->sys, &w->settings, &e, w->f));
    return e;
}

static void test_dof(void)
{
    water_md w;
    if (water_md_open(&w)) {
        const int64_t d1 = vkmd_constraints_dof(&w.sys, &w.set, 1);
        const int64_t d0 = vkmd_constraints_dof(&w.sys, &w.set, 0);
        printf("water:216 rigid: dof %lld with COM removal, %lld without (3 N = %d, %d "
               "constraints)\n",
               (long long)d1, (long long)d0, 3 * w.sys.atom_count, w.set.constraint_count);
        CHECK(d1 == 3 * 648 - 648 - 3);
        CHECK(d0 == 3 * 648 - 648);
        water_md_start(&w, 300.0);
        double p[3] = {0};
        for (int32_t i = 0; i < w.sys.atom_count; ++i)
            for (int c = 0; c < 3; ++c)
                p[c] += w.mass[i] * w.vel[3 * i + c];
        const double t0 = temperature(&w.sys, w.vel, w.dof);
        printf(
            "start: %.2f K (Maxwell-Boltzmann at 300 K, rigid), momentum %.3g %.3g %.3g amu A/fs\n",
            t0, p[0], p[1], p[2]);
        CHECK(fabs(p[0]) + fabs(p[1]) + fabs(p[2]) < 1e-12);
        CHECK(t0 > 250 && t0 < 350);
        /* 1 amu at 1 A/fs is 1 / 4.184e-4 / 2 kcal/mol */
        vkmd_system one = w.sys;
        one.atom_count = 1;
        const double v1[3] = {1, 0, 0};
        check_close("KE of one O at 1 A/fs (kcal/mol)", vkmd_kinetic_energy(&one, v1),
                    0.5 * 15.99943 / 4.184e-4, 1e-14, 0);
    }
    water_md_close(&w);
}

/* Runs `steps` steps of `p` numbered from `first`; the mean temperature
 * over the steps in *out_mean_t (may be NULL), the last in *out_last_t (may
 * be NULL). 0 on an error. */
static int run_steps(water_md *w, const ref_md_params *p, int first, int steps, double *out_mean_t,
                     double *out_last_t)
{
    double sum = 0, t = 0;
    for (int s = first; s < first + steps; ++s) {
        vkmd_result r =
            ref_md_step(&w->sys, &w->settings, &w->set, p, (uint64_t)s, w->pos, w->vel, w->f, NULL);
        CHECK_OK(r);
        if (r != VKMD_OK)
            return 0;
        t = temperature(&w->sys, w->vel, w->dof);
        sum += t;
    }
    if (out_mean_t)
        *out_mean_t = sum / steps;
    if (out_last_t)
        *out_last_t = t;
    return 1;
}

static ref_md_params langevin_params(double t_k, double gamma_per_ps, uint64_t seed)
{
    return (ref_md_params){.integrator = REF_INTEGRATOR_LANGEVIN,
                           .dt_fs = 1.0,
                           .temperature_k = t_k,
                           .friction_per_ps = gamma_per_ps,
                           .seed = seed,
                           .tol = 1e-10};
}

/* The built lattice has random orientations, its potential energy far above
 * a liquid's: a strongly damped Langevin run at 300 K carries the heat it
 * releases away before the NVE and thermostat checks start from it. */
static int equilibrate(water_md *w)
{
    vkmd_energy e0 = water_md_start(w, 300.0);
    const ref_md_params p = langevin_params(300.0, 100.0, 5);
    double t_mean, t_last;
    if (!run_steps(w, &p, 0, EQUIL_STEPS, &t_mean, &t_last))
        return 0;
    vkmd_system view = w->sys;
    view.positions = w->pos;
    vkmd_energy e1;
    CHECK_OK(vkmd_ref_compute(&view, &w->settings, &e1, NULL));
    printf("equilibration (Langevin 300 K, gamma 100/ps, %d steps of 1 fs): potential %.1f -> "
           "%.1f kcal/mol, mean T %.1f K, last %.1f K\n",
           EQUIL_STEPS, e0.total, e1.total, t_mean, t_last);
    return !test_failures;
}

static void test_nve(water_md *w)
{
    double etot[NVE_STEPS + 1], ekin[NVE_STEPS + 1];
    vkmd_system view = w->sys;
    view.positions = w->pos;
    vkmd_energy e;
    CHECK_OK(vkmd_ref_compute(&view, &w->settings, &e, w->f));
    /* A Langevin-middle step leaves v with about half of the O step's noise
     * along each constraint (only the position correction is fed back):
     * Verlet starts from constrained velocities, or its first RATTLE would
     * remove ~9 kcal/mol of kinetic energy here. */
    CHECK_OK(vkmd_host_constraints_velocities(&w->set, w->mass, w->pos, w->vel, 1e-10));
    const ref_md_params p = {.integrator = REF_INTEGRATOR_VERLET, .dt_fs = 1.0, .tol = 1e-10};
    ekin[0] = vkmd_kinetic_energy(&w->sys, w->vel);
    etot[0] = e.total + ekin[0];
    double worst_violation = 0, t_sum = 0;
    for (int s = 0; s < NVE_STEPS; ++s) {
        vkmd_result r =
            ref_md_step(&w->sys, &w->settings, &w->set, &p, (uint64_t)s, w->pos, w->vel, w->f, &e);
        CHECK_OK(r);
        if (r != VKMD_OK)
            return;
        double wv, hv;
        vkmd_host_constraints_violation(&w->set, w->pos, &wv, &hv);
        worst_violation = fmax(worst_violation, wv);
        ekin[s + 1] = vkmd_kinetic_energy(&w->sys, w->vel);
        etot[s + 1] = e.total + ekin[s + 1];
        t_sum += temperature(&w->sys, w->vel, w->dof);
    }
    double me = 0, mk = 0;
    for (int s = 0; s <= NVE_STEPS; ++s) {
        me += etot[s];
        mk += ekin[s];
    }
    me /= NVE_STEPS + 1;
    mk /= NVE_STEPS + 1;
    double ve = 0, vk = 0, sxy = 0, sxx = 0;
    for (int s = 0; s <= NVE_STEPS; ++s) {
        ve += (etot[s] - me) * (etot[s] - me);
        vk += (ekin[s] - mk) * (ekin[s] - mk);
        const double x = s - 0.5 * NVE_STEPS;
        sxy += x * (etot[s] - me);
        sxx += x * x;
    }
    const double rms_e = sqrt(ve / (NVE_STEPS + 1)), rms_k = sqrt(vk / (NVE_STEPS + 1));
    const double drift_per_ps = sxy / sxx * 1000.0; /* per 1 fs step -> per ps */
    printf("NVE, water:216 rigid, velocity Verlet, 1 fs, %d steps: E_total %.4f -> %.4f kcal/mol, "
           "RMS fluctuation %.4f kcal/mol, drift %+.3f kcal/mol/ps (%+.2e per dof); KE RMS "
           "fluctuation %.3f kcal/mol (ratio %.4f, limit 0.02); mean T %.1f K; largest water "
           "violation %.3g A\n",
           NVE_STEPS, etot[0], etot[NVE_STEPS], rms_e, drift_per_ps, drift_per_ps / (double)w->dof,
           rms_k, rms_e / rms_k, t_sum / NVE_STEPS, worst_violation);
    CHECK(rms_e < 0.02 * rms_k);
    CHECK(worst_violation <= 1e-10);
}

/* RMS fluctuation of the total energy over `steps` Verlet steps of dt_fs
 * from (pos, vel); the kinetic energy's in *out_rms_k. */
static double villin_nve(const vkmd_system *sys, const vkmd_constraint_set *set,
                         const vkmd_ff_settings *settings, const double *pos0, const double *vel0,
                         double dt_fs, int steps, double *out_rms_k)
{
    const size_t bytes = (size_t)3 * sys->atom_count * sizeof(double);
    double *pos = malloc(bytes), *vel = malloc(bytes), *f = malloc(bytes);
    double se = 0, se2 = 0, sk = 0, sk2 = 0, rms_e = -1;
    *out_rms_k = 0;
    CHECK(pos && vel && f);
    if (!pos || !vel || !f)
        goto done;
    memcpy(pos, pos0, bytes);
    memcpy(vel, vel0, bytes);
    vkmd_system view = *sys;
    view.positions = pos;
    vkmd_energy e;
    CHECK_OK(vkmd_ref_compute(&view, settings, &e, f));
    const ref_md_params p = {.integrator = REF_INTEGRATOR_VERLET, .dt_fs = dt_fs, .tol = 1e-10};
    for (int s = 0; s <= steps; ++s) {
        if (s > 0) {
            vkmd_result r = ref_md_step(sys, settings, set, &p, (uint64_t)s, pos, vel, f, &e);
            CHECK_OK(r);
            if (r != VKMD_OK)
                goto done;
        }
        const double k = vkmd_kinetic_energy(sys, vel), t = e.total + k;
        se += t;
        se2 += t * t;
        sk += k;
        sk2 += k * k;
    }
    const double n = steps + 1;
    rms_e = sqrt(fmax(0, se2 / n - (se / n) * (se / n)));
    *out_rms_k = sqrt(fmax(0, sk2 / n - (sk / n) * (sk / n)));
done:
    free(pos);
    free(vel);
    free(f);
    return rms_e;
}

static void test_villin_nve(void)
{
    vkmd_system sys = {0};
    vkmd_constraint_set set = {0};
    vkmd_ff_settings settings = {0};
    double *mass = NULL, *vel = NULL;
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/villin_vac.prmtop", NULL, &sys));
    CHECK_OK(vkmd_constraints_build(&sys, 1, 1, &set));
    CHECK_OK(vkmd_ff_settings_resolve(&settings, &sys));
    if (test_failures)
        goto done;
    const int32_t n = sys.atom_count;
    mass = malloc((size_t)n * sizeof *mass);
    vel = malloc((size_t)3 * n * sizeof *vel);
    CHECK(mass && vel);
    if (!mass || !vel)
        goto done;
    for (int32_t i = 0; i < n; ++i)
        mass[i] = sys.atoms[i].mass;
    /* the loaded bonds are not at r0: constrain the start */
    double *ref = malloc((size_t)3 * n * sizeof *ref);
    CHECK(ref != NULL);
    if (!ref)
        goto done;
    memcpy(ref, sys.positions, (size_t)3 * n * sizeof *ref);
    CHECK_OK(vkmd_host_constraints_positions(&set, mass, ref, sys.positions, NULL, 0, 1e-12));
    free(ref);
    thermal_velocities(&sys, &set, mass, 300.0, 3, vel);
    double k1, k2;
    const double e1 = villin_nve(&sys, &set, &settings, sys.positions, vel, 1.0, 100, &k1);
    const double e2 = villin_nve(&sys, &set, &settings, sys.positions, vel, 0.5, 200, &k2);
    printf("NVE, villin_vac with H-bond clusters, 100 fs: total-energy RMS fluctuation %.4f "
           "kcal/mol at 1 fs, %.4f at 0.5 fs (ratio %.2f, expected ~4 for O(dt^2)); KE RMS "
           "fluctuation %.2f kcal/mol (ratio at 1 fs %.4f, limit 0.02)\n",
           e1, e2, e1 / e2, k1, e1 / k1);
    CHECK(e1 >= 0 && e2 > 0);
    CHECK(e1 < 0.02 * k1);
    CHECK(e1 / e2 > 2.5 && e1 / e2 < 6);
done:
    free(mass);
    free(vel);
    vkmd_constraints_destroy(&set);
    vkmd_system_destroy(&sys);
}

static void test_langevin(water_md *w)
{
    const int32_t n = w->sys.atom_count;
    const size_t bytes = (size_t)3 * n * sizeof(double);
    double *pos0 = malloc(bytes), *vel0 = malloc(bytes), *f0 = malloc(bytes);
    double *pos1 = malloc(bytes), *vel1 = malloc(bytes);
    CHECK(pos0 && vel0 && f0 && pos1 && vel1);
    if (!pos0 || !vel0 || !f0 || !pos1 || !vel1)
        goto done;
    memcpy(pos0, w->pos, bytes);
    memcpy(vel0, w->vel, bytes);
    memcpy(f0, w->f, bytes);

    /* towards 300 K from rest and from 3x the kinetic energy */
    static const double scale[2] = {0.0, 1.7320508075688772};
    for (int k = 0; k < 2; ++k) {
        memcpy(w->pos, pos0, bytes);
        memcpy(w->f, f0, bytes);
        for (size_t i = 0; i < (size_t)3 * n; ++i)
            w->vel[i] = scale[k] * vel0[i];
        const double t0 = temperature(&w->sys, w->vel, w->dof);
        const ref_md_params p = langevin_params(300.0, 20.0, 11);
        double t_first, t_mean, t_last;
        if (!run_steps(w, &p, 0, LANGEVIN_STEPS / 2, NULL, &t_first) ||
            !run_steps(w, &p, LANGEVIN_STEPS / 2, LANGEVIN_STEPS / 2, &t_mean, &t_last))
            goto done;
        printf(
            "Langevin to 300 K (gamma 20/ps, 1 fs) from %.1f K: %.1f K after %d steps, mean over "
            "steps %d..%d %.1f K\n",
            t0, t_first, LANGEVIN_STEPS / 2, LANGEVIN_STEPS / 2 + 1, LANGEVIN_STEPS, t_mean);
        CHECK(fabs(t_mean - 300) < 0.5 * fabs(t0 - 300));
        CHECK(fabs(t_mean - 300) < 60);
    }

    /* same seed: same bits; another seed: other bits */
    for (int k = 0; k < 3; ++k) {
        memcpy(w->pos, pos0, bytes);
        memcpy(w->vel, vel0, bytes);
        memcpy(w->f, f0, bytes);
        const ref_md_params p = langevin_params(300.0, 20.0, k == 2 ? 12 : 11);
        if (!run_steps(w, &p, 1000, REPEAT_STEPS, NULL, NULL))
            goto done;
        if (k == 0) {
            memcpy(pos1, w->pos, bytes);
            memcpy(vel1, w->vel, bytes);
        } else if (k == 1) {
            const int same = !memcmp(pos1, w->pos, bytes) && !memcmp(vel1, w->vel, bytes);
            printf("%d Langevin steps repeated with the same seed: positions and velocities %s\n",
                   REPEAT_STEPS, same ? "bit-identical" : "DIFFER");
            CHECK(same);
        } else {
            const int differ = memcmp(pos1, w->pos, bytes) != 0 && memcmp(vel1, w->vel, bytes) != 0;
            printf("with seed 12 instead of 11: %s\n", differ ? "different" : "IDENTICAL");
            CHECK(differ);
        }
    }
done:
    free(pos0);
    free(vel0);
    free(f0);
    free(pos1);
    free(vel1);
}

/* Free particles in vacuum: no bonds, no charges, no LJ. */
static void test_free_particles(void)
{
    enum { N = 500, STEPS = 2000 };
    static const double masses[3] = {1.008, 15.999, 200.0};
    vkmd_system sys = {0};
    sys.atom_count = N;
    sys.atoms = calloc(N, sizeof *sys.atoms);
    sys.positions = calloc(3 * N, sizeof *sys.positions);
    sys.lj_type_count = 1;
    sys.lj_a = calloc(1, sizeof *sys.lj_a);
    sys.lj_b = calloc(1, sizeof *sys.lj_b);
    double *vel = calloc(3 * N, sizeof *vel), *f = calloc(3 * N, sizeof *f);
    vkmd_constraint_set none = {0};
    CHECK(sys.atoms && sys.positions && sys.lj_a && sys.lj_b && vel && f);
    if (test_failures)
        goto done;
    for (int32_t i = 0; i < N; ++i) {
        sys.atoms[i].mass = masses[i % 3];
        sys.atoms[i].element = 1;
        for (int c = 0; c < 3; ++c)
            sys.positions[3 * i + c] = 10.0 * (i % 8) + (c == 0 ? 0.1 * i : 1.7 * (i / 8)) + c;
    }
    vkmd_ff_settings settings = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&settings, &sys));
    vkmd_energy e;
    CHECK_OK(vkmd_ref_compute(&sys, &settings, &e, f));
    if (test_failures)
        goto done;
    const double target = 300.0;
    const ref_md_params p = {.integrator = REF_INTEGRATOR_LANGEVIN,
                             .dt_fs = 1.0,
                             .temperature_k = target,
                             .friction_per_ps = 200.0,
                             .seed = 99,
                             .tol = 1e-10};
    double ke[3] = {0};
    long samples[3] = {0};
    for (int s = 0; s < STEPS && !test_failures; ++s) {
        CHECK_OK(ref_md_step(&sys, &settings, &none, &p, (uint64_t)s, sys.positions, vel, f, &e));
        if (s < 100) /* equilibrate: 20 relaxation times */
            continue;
        for (int32_t i = 0; i < N; ++i) {
            const double *v = vel + 3 * i;
            ke[i % 3] += 0.5 * sys.atoms[i].mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) *
                         VKMD_KCAL_PER_AMU_A2_FS2;
            ++samples[i % 3];
        }
    }
    const double c1 = exp(-p.friction_per_ps / 1000.0 * p.dt_fs);
    for (int k = 0; k < 3; ++k) {
        const double t = 2 * ke[k] / (3.0 * samples[k] * VKMD_BOLTZMANN_KCAL);
        printf("free particles of %.3f amu: mean T %.2f K (target %.0f K, limit 1%%; (1 + c1) / 2 "
               "would give %.1f K)\n",
               masses[k], t, target, 0.5 * (1 + c1) * target);
        CHECK(fabs(t / target - 1) < 0.01);
    }
    CHECK(e.total == 0);
done:
    free(vel);
    free(f);
    vkmd_system_destroy(&sys);
}

int main(void)
{
    test_dof();
    test_free_particles();
    test_villin_nve();
    water_md w;
    if (water_md_open(&w) && equilibrate(&w)) {
        const size_t bytes = (size_t)3 * w.sys.atom_count * sizeof(double);
        double *pos = malloc(bytes), *vel = malloc(bytes);
        CHECK(pos && vel);
        if (pos && vel) {
            memcpy(pos, w.pos, bytes);
            memcpy(vel, w.vel, bytes);
            test_nve(&w);
            memcpy(w.pos, pos, bytes);
            memcpy(w.vel, vel, bytes);
            vkmd_system view = w.sys;
            view.positions = w.pos;
            vkmd_energy e;
            CHECK_OK(vkmd_ref_compute(&view, &w.settings, &e, w.f));
            test_langevin(&w);
        }
        free(pos);
        free(vel);
    }
    water_md_close(&w);
    return test_finish("test_ref_md");
}
