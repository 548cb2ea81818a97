/* Monte Carlo barostat (sim/barostat.h, maths/volume_move.h) and the box as
 * state of the MD (vkmd_md_set_box_state), on water:216 (rigid TIP3P, PME,
 * 9 A cutoff):
 *   - maths: molecule centres of mass scale with the box, every molecule
 *     moves rigidly; the acceptance exponent equals the formula in double;
 *   - the energy and forces of a scaled trial state on the device (new box
 *     in every pass, the PME 1/V factor, the dispersion correction) equal
 *     the CPU reference's (ref_forcefield) of the same coordinates and box
 *     within tests/tolerance.h's fp32 limits;
 *   - a rejected move leaves positions, velocities, forces and energies
 *     bitwise as before;
 *   - iso keeps the edge ratios, aniso changes the edges independently,
 *     membrane keeps x / y while z moves on its own;
 *   - a short NPT run at 300 K and 1 bar keeps the density sane (0.9 to 1.1
 *     g/cm^3) with acceptance between 5% and 95%;
 *   - refusals: velocity Verlet with a pressure, a negative pressure, a
 *     vacuum system, a box below 2 cutoffs. */
#include "test_md_common.h"
#include "tolerance.h"
#include "core/units.h"
#include "maths/density.h"
#include "maths/volume_move.h"
#include "vk/context.h"

static void test_maths(const vkmd_system *sys)
{
    vkmd_molecules mol = {0};
    CHECK_OK(vkmd_molecules_build(sys, &mol));
    const size_t n3 = 3 * (size_t)sys->atom_count;
    double *x = malloc(sizeof *x * n3);
    memcpy(x, sys->positions, sizeof *x * n3);
    vkmd_molecules_make_whole(sys, &mol, x);
    double *y = malloc(sizeof *y * n3);
    memcpy(y, x, sizeof *y * n3);
    const double scale[3] = {1.01, 0.98, 1.003};
    vkmd_volume_move_scale(sys, &mol, scale, y);
    double worst_com = 0, worst_rigid = 0;
    for (int32_t m = 0; m < mol.count; ++m) {
        long double c0[3] = {0}, c1[3] = {0}, mass = 0;
        const int32_t a0 = mol.atoms[mol.first[m]];
        for (int32_t k = mol.first[m]; k < mol.first[m + 1]; ++k) {
            const int32_t a = mol.atoms[k];
            mass += sys->atoms[a].mass;
            for (int d = 0; d < 3; ++d) {
                c0[d] += (long double)sys->atoms[a].mass * x[3 * a + d];
                c1[d] += (long double)sys->atoms[a].mass * y[3 * a + d];
                /* every atom keeps its offset from the molecule's first atom */
                const double off =
                    fabs((y[3 * a + d] - y[3 * a0 + d]) - (x[3 * a + d] - x[3 * a0 + d]));
                worst_rigid = fmax(worst_rigid, off);
            }
        }
        for (int d = 0; d < 3; ++d)
            worst_com = fmax(worst_com, fabs((double)(c1[d] / mass - scale[d] * (c0[d] / mass))));
    }
    printf("volume move maths: %d molecules scaled by (%g, %g, %g): centres of mass off by at "
           "most %.2e A, intramolecular offsets by %.2e A\n",
           mol.count, scale[0], scale[1], scale[2], worst_com, worst_rigid);
    CHECK(worst_com < 1e-11);
    CHECK(worst_rigid < 1e-11);
    const double kt = VKMD_BOLTZMANN_KCAL * 300, p = VKMD_KCAL_PER_A3_PER_BAR;
    const double w = vkmd_volume_move_exponent(-3.0, p, 6500, 6560, 216, kt);
    const double want = (-3.0 + p * 60 - 216 * kt * log(6560.0 / 6500.0)) / kt;
    check_close("acceptance exponent", w, want, 1e-14, 0);
    free(x);
    free(y);
    vkmd_molecules_destroy(&mol);
}

/* Trial state on the device vs the reference of the same coordinates. */
static void test_trial_energy(vkmd_vk_context *ctx, const vkmd_system *sys,
                              const vkmd_ff_settings *s)
{
    const vkmd_md_desc d = {.settings = s, .pressure_bar = 1, .seed = 5};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    if (!md)
        return;
    const size_t n3 = 3 * (size_t)sys->atom_count;
    double *x = malloc(sizeof *x * n3), *f_dev = malloc(sizeof *f_dev * n3),
           *f_ref = malloc(sizeof *f_ref * n3);
    for (int pass = 0; pass < 2; ++pass) {
        const double scale[3] = {pass ? 1.0 : cbrt(1.02), pass ? 0.99 : cbrt(1.02),
                                 pass ? 1.015 : cbrt(1.02)};
        double box[3], trial[3];
        vkmd_md_get_box(md, box);
        CHECK_OK(vkmd_md_read(ctx, md, NULL, x, NULL));
        vkmd_volume_move_scale(sys, vkmd_md_molecules(md), scale, x);
        for (int k = 0; k < 3; ++k)
            trial[k] = box[k] * scale[k];
        CHECK_OK(vkmd_md_set_box_state(ctx, md, trial, x));
        vkmd_energy e_dev, e_ref;
        CHECK_OK(vkmd_forcefield_readback(ctx, vkmd_md_forcefield(md), &e_dev, f_dev));
        double got[3];
        vkmd_md_get_box(md, got);
        CHECK(got[0] == trial[0] && got[1] == trial[1] && got[2] == trial[2]);
        /* the reference sees the device's (float) coordinates and the new box */
        CHECK_OK(vkmd_md_read(ctx, md, NULL, x, NULL));
        vkmd_system t = *sys;
        t.positions = x;
        for (int k = 0; k < 3; ++k)
            t.box.len[k] = trial[k];
        CHECK_OK(vkmd_ref_compute(&t, s, &e_ref, f_ref));
        double num = 0, den = 0;
        for (size_t k = 0; k < n3; ++k) {
            num += (f_dev[k] - f_ref[k]) * (f_dev[k] - f_ref[k]);
            den += f_ref[k] * f_ref[k];
        }
        const double frms = sqrt(num / den);
        printf("trial box %.4f x %.4f x %.4f A (V x %.4f): device %.6f, reference %.6f kcal/mol "
               "(rel %.2e, limit %.0e); dispersion %.6f vs %.6f; reciprocal %.6f vs %.6f; "
               "force RMS rel %.2e (limit %.0e)\n",
               trial[0], trial[1], trial[2], scale[0] * scale[1] * scale[2], e_dev.total,
               e_ref.total, fabs(e_dev.total - e_ref.total) / fabs(e_ref.total), TOL_FP32_TOTAL_REL,
               e_dev.lj_dispersion, e_ref.lj_dispersion, e_dev.coulomb_recip, e_ref.coulomb_recip,
               frms, TOL_FP32_FORCE_RMS);
        check_close("trial total energy", e_dev.total, e_ref.total, TOL_FP32_TOTAL_REL, 0);
        check_close("trial dispersion correction", e_dev.lj_dispersion, e_ref.lj_dispersion, 1e-12,
                    0);
        check_close("trial reciprocal energy", e_dev.coulomb_recip, e_ref.coulomb_recip,
                    TOL_FP32_ENERGY_REL, TOL_FP32_ENERGY_ABS);
        check_close("trial net-charge correction", e_dev.coulomb_net_charge,
                    e_ref.coulomb_net_charge, 1e-12, 1e-12);
        CHECK(frms < TOL_FP32_FORCE_RMS);
    }
    /* a box below 2 cutoffs is refused and changes nothing */
    double box[3], small[3] = {17.0, 17.0, 17.0};
    vkmd_md_get_box(md, box);
    CHECK(vkmd_md_set_box(ctx, md, small) == VKMD_ERROR_INVALID_ARGUMENT);
    double after[3];
    vkmd_md_get_box(md, after);
    CHECK(after[0] == box[0] && after[1] == box[1] && after[2] == box[2]);
    free(x);
    free(f_dev);
    free(f_ref);
    vkmd_md_destroy(ctx, md);
}

typedef struct snapshot {
    double *x, *v, *f;
    vkmd_energy e;
    double box[3];
} snapshot;

static void snap(vkmd_vk_context *ctx, vkmd_md *md, int32_t n, snapshot *s)
{
    const size_t n3 = 3 * (size_t)n;
    s->x = malloc(sizeof *s->x * n3);
    s->v = malloc(sizeof *s->v * n3);
    s->f = malloc(sizeof *s->f * n3);
    CHECK_OK(vkmd_md_read(ctx, md, NULL, s->x, s->v));
    CHECK_OK(vkmd_forcefield_readback(ctx, vkmd_md_forcefield(md), &s->e, s->f));
    vkmd_md_get_box(md, s->box);
}

static int same_snap(const snapshot *a, const snapshot *b, int32_t n)
{
    const size_t bytes = sizeof(double) * 3 * (size_t)n;
    return !memcmp(a->x, b->x, bytes) && !memcmp(a->v, b->v, bytes) && !memcmp(a->f, b->f, bytes) &&
           !memcmp(&a->e, &b->e, sizeof a->e) && !memcmp(a->box, b->box, sizeof a->box);
}

static void snap_free(snapshot *s)
{
    free(s->x);
    free(s->v);
    free(s->f);
}

/* Attempts until one is rejected: the state after it is the state before. */
static void test_reject(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_ff_settings *s,
                        const double *x0, const double *v0)
{
    const vkmd_md_desc d = {.settings = s, .seed = 11};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    vkmd_barostat *b = NULL;
    /* a high pressure: expansions are rejected */
    CHECK_OK(vkmd_barostat_create(5000, 25, VKMD_BAROSTAT_ISO, VKMD_BOLTZMANN_KCAL * 300, 11,
                                  vkmd_md_molecules(md)->count, &b));
    if (!md || !b)
        return;
    CHECK_OK(vkmd_md_set_state(ctx, md, x0, v0));
    CHECK_OK(vkmd_md_step(ctx, md, 20));
    int rejected = 0, accepted = 0, tries = 0;
    for (; tries < 40 && !rejected; ++tries) {
        snapshot before, after;
        snap(ctx, md, sys->atom_count, &before);
        int acc = 0;
        CHECK_OK(vkmd_md_barostat_move(ctx, md, b, &acc));
        snap(ctx, md, sys->atom_count, &after);
        if (acc) {
            ++accepted;
            CHECK(after.box[0] != before.box[0]);
        } else {
            rejected = 1;
            const int same = same_snap(&before, &after, sys->atom_count);
            printf("rejected move (after %d accepted): positions, velocities, forces, energies "
                   "and box %s\n",
                   accepted, same ? "bitwise as before" : "CHANGED");
            CHECK(same);
        }
        snap_free(&before);
        snap_free(&after);
        CHECK_OK(vkmd_md_step(ctx, md, 5)); /* another step: other random numbers */
    }
    CHECK(rejected);
    /* and the MD goes on from the restored state */
    CHECK_OK(vkmd_md_step(ctx, md, 10));
    vkmd_md_report r;
    CHECK_OK(vkmd_md_read(ctx, md, &r, NULL, NULL));
    CHECK(isfinite(r.total) && r.temperature_k > 100 && r.temperature_k < 600);
    vkmd_barostat_destroy(b);
    vkmd_md_destroy(ctx, md);
}

/* Runs `steps` with a barostat of `mode` every 2 steps; returns the box. */
static void run_mode(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_ff_settings *s,
                     const double *x0, const double *v0, vkmd_barostat_mode mode, double box0[3],
                     double box[3], vkmd_barostat_stats *st)
{
    const vkmd_md_desc d = {
        .settings = s, .seed = 21, .pressure_bar = 1, .barostat_every = 2, .barostat = mode};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    if (!md)
        return;
    CHECK_OK(vkmd_md_set_state(ctx, md, x0, v0));
    vkmd_md_get_box(md, box0);
    CHECK_OK(vkmd_md_step(ctx, md, 120));
    vkmd_md_get_box(md, box);
    vkmd_md_barostat_stats(md, st);
    vkmd_md_destroy(ctx, md);
}

static void test_modes(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_ff_settings *s,
                       const double *x0, const double *v0)
{
    static const char *names[] = {"iso", "aniso", "membrane"};
    for (int m = 0; m < 3; ++m) {
        double b0[3] = {0}, b[3] = {0};
        vkmd_barostat_stats st;
        memset(&st, 0, sizeof st);
        run_mode(ctx, sys, s, x0, v0, (vkmd_barostat_mode)m, b0, b, &st);
        const double rxy = (b[0] / b[1]) / (b0[0] / b0[1]);
        const double rxz = (b[0] / b[2]) / (b0[0] / b0[2]);
        const double ryz = (b[1] / b[2]) / (b0[1] / b0[2]);
        printf("%-8s 60 attempts, %lld accepted (per kind %lld/%lld/%lld): box %.5f x %.5f x "
               "%.5f A from %.5f; ratios x/y %.3e, x/z %.3e, y/z %.3e off; step sizes %.2f "
               "%.2f %.2f A^3\n",
               names[m], (long long)st.accepted, (long long)st.state.accepted[0],
               (long long)st.state.accepted[1], (long long)st.state.accepted[2], b[0], b[1], b[2],
               b0[0], fabs(rxy - 1), fabs(rxz - 1), fabs(ryz - 1), st.state.step_a3[0],
               st.state.step_a3[1], st.state.step_a3[2]);
        CHECK(st.attempts == 60);
        CHECK(st.accepted > 0 && st.accepted < 60);
        CHECK(vkmd_box_volume(b) != vkmd_box_volume(b0));
        if (m == VKMD_BAROSTAT_ISO) {
            CHECK(fabs(rxy - 1) < 1e-12 && fabs(rxz - 1) < 1e-12);
        } else if (m == VKMD_BAROSTAT_ANISO) {
            CHECK(st.state.accepted[0] > 0 && st.state.accepted[1] > 0 && st.state.accepted[2] > 0);
            CHECK(fabs(rxy - 1) > 1e-6 && fabs(rxz - 1) > 1e-6 && fabs(ryz - 1) > 1e-6);
        } else {
            CHECK(st.state.attempts[1] == 0);
            CHECK(st.state.accepted[0] > 0 && st.state.accepted[2] > 0);
            CHECK(fabs(rxy - 1) < 1e-12);
            CHECK(fabs(rxz - 1) > 1e-6);
        }
    }
}

static void test_npt(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_ff_settings *s,
                     const double *x0, const double *v0)
{
    const vkmd_md_desc d = {.settings = s, .seed = 31, .pressure_bar = 1, .barostat_every = 10};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    if (!md)
        return;
    CHECK_OK(vkmd_md_set_state(ctx, md, x0, v0));
    double lo = 1e9, hi = 0, mean = 0;
    int n = 0;
    for (int k = 0; k < 30; ++k) {
        CHECK_OK(vkmd_md_step(ctx, md, 50));
        vkmd_md_report r;
        CHECK_OK(vkmd_md_read(ctx, md, &r, NULL, NULL));
        lo = fmin(lo, r.density_g_cm3);
        hi = fmax(hi, r.density_g_cm3);
        mean += r.density_g_cm3;
        ++n;
    }
    mean /= n;
    vkmd_barostat_stats st;
    vkmd_md_barostat_stats(md, &st);
    double w = 0, h = 0;
    CHECK_OK(vkmd_md_constraint_violation(ctx, md, &w, &h));
    printf("NPT water:216, 300 K, 1 bar, 1500 steps of 2 fs: density %.4f g/cm^3 (%.4f .. %.4f), "
           "%lld of %lld moves accepted, step %.1f A^3, water violation %.2e A\n",
           mean, lo, hi, (long long)st.accepted, (long long)st.attempts, st.state.step_a3[0], w);
    CHECK(lo > 0.9 && hi < 1.1);
    CHECK(st.attempts == 150);
    CHECK(st.accepted > 0.05 * st.attempts && st.accepted < 0.95 * st.attempts);
    CHECK(w < TOL_MD_WATER_A);
    /* off between stages, then on again: the step size carries on */
    CHECK_OK(vkmd_md_set_pressure(md, 0));
    CHECK_OK(vkmd_md_step(ctx, md, 20));
    vkmd_barostat_stats off;
    vkmd_md_barostat_stats(md, &off);
    CHECK(off.attempts == st.attempts && off.pressure_bar == 0);
    CHECK(vkmd_md_set_pressure(md, -1) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(vkmd_md_set_integrator(md, VKMD_INTEGRATOR_VERLET) == VKMD_OK);
    CHECK(vkmd_md_set_pressure(md, 1) == VKMD_ERROR_INVALID_ARGUMENT); /* NVE */
    vkmd_md_destroy(ctx, md);
}

static void test_refusals(vkmd_vk_context *ctx, const vkmd_ff_settings *s)
{
    vkmd_md_desc in = {.settings = s, .pressure_bar = 1, .integrator = VKMD_INTEGRATOR_VERLET}, out;
    CHECK(vkmd_md_desc_resolve(&in, &out) == VKMD_ERROR_INVALID_ARGUMENT);
    printf("Verlet + barostat: %s\n", vkmd_last_error());
    in = (vkmd_md_desc){.settings = s, .pressure_bar = -2};
    CHECK(vkmd_md_desc_resolve(&in, &out) == VKMD_ERROR_INVALID_ARGUMENT);
    printf("negative pressure: %s\n", vkmd_last_error());
    in = (vkmd_md_desc){.settings = s, .pressure_bar = 1};
    CHECK_OK(vkmd_md_desc_resolve(&in, &out));
    CHECK(out.barostat_every == 25 && out.barostat == VKMD_BAROSTAT_ISO);
    /* vacuum: three waters without a box */
    vkmd_system vac = {0};
    CHECK_OK(vkmd_water_box_build(3, VKMD_WATER_BOX_DEFAULT_SEED, &vac));
    vac.box.periodic = 0;
    vkmd_ff_settings vs = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&vs, &vac));
    const vkmd_md_desc vd = {.settings = &vs, .pressure_bar = 1};
    vkmd_md *md = NULL;
    CHECK(vkmd_md_create(ctx, &vac, &vd, &md) == VKMD_ERROR_INVALID_ARGUMENT);
    printf("vacuum + barostat: %s\n", vkmd_last_error());
    vkmd_md_destroy(ctx, md);
    vkmd_system_destroy(&vac);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int rc = test_vk_open("test_barostat", &ctx);
    if (rc >= 0)
        return rc;
    vkmd_system sys = {0};
    vkmd_ff_settings s = {0};
    water216_setup(&sys, &s);
    test_maths(&sys);
    test_refusals(ctx, &s);
    test_trial_energy(ctx, &sys, &s);
    const vkmd_md_desc d = {.settings = &s, .temperature_k = 300};
    const size_t n3 = 3 * (size_t)sys.atom_count;
    double *x0 = malloc(sizeof *x0 * n3), *v0 = malloc(sizeof *v0 * n3);
    relax_start(ctx, &sys, &d, 400, x0, v0);
    test_reject(ctx, &sys, &s, x0, v0);
    test_modes(ctx, &sys, &s, x0, v0);
    test_npt(ctx, &sys, &s, x0, v0);
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    free(x0);
    free(v0);
    vkmd_system_destroy(&sys);
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_barostat");
}
