/* GPU generalized Born pass (shaders/gb.comp, engine/forces/pass_gb.c)
 * against the double-precision reference ref_gb_compute, on the openmm_gb
 * fixture's prmtops (ala2 and villin in vacuum with the radius set each model
 * pairs with):
 *   - every model (HCT, OBC1, OBC2, GBn, GBn2) on both systems plain, with
 *     0.15 M salt, with ACE, with both, and GBn2 with salt, ACE and a 12 A
 *     cutoff on villin, in every positions mode (fp32, split-float,
 *     split-int): polar and nonpolar energies within 1e-5 relative, forces
 *     RMS(F_gpu - F_ref) / RMS(F_ref) <= 1e-5 and max |dF| <= 1e-3 RMS(F_ref)
 *     (tests/tolerance.h); the reference sees the positions the device holds
 *     (read back in the mode), so the figures measure the pass's arithmetic;
 *   - a second evaluation without energies gives the same force bits, and a
 *     third with energies the same force and energy bits;
 *   - the whole force field (vkmd_forcefield with settings.gb) against
 *     vkmd_ref_compute for every model on villin (salt and ACE), every mode:
 *     the GB and nonpolar terms and the total within 1e-5 relative, forces as
 *     above;
 *   - MD and the minimiser through the force field (ala2, OBC2 with salt
 *     and ACE): the step-0 report's GB, nonpolar and total energies against
 *     the reference on the MD's start, FIRE lowering the energy, and the
 *     total energy over 400 velocity-Verlet steps of 1 fs conserved within
 *     twice (+ 0.01 kcal/mol) what the same run without GB conserves;
 *   - the device time of the pass per evaluation (villin, timestamps),
 *     printed.
 * The figures are printed; the words build runs as test_gpu_gb_words. */
#include "testlib.h"
#include "tolerance.h"
#include "forces/forcefield.h"
#include "forces/pass_gb.h"
#include "forces/positions.h"
#include "io/load.h"
#include "ref/ref.h"
#include "ref/ref_gb.h"
#include "sim/md.h"
#include "system/gb_params.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/timer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN VKMD_TEST_GEN_DIR

static const char *const mode_names[3] = {"fp32", "split-float", "split-int"};

static const struct {
    vkmd_gb_model model;
    const char *set;
} models[] = {{VKMD_GB_HCT, "mbondi"},
              {VKMD_GB_OBC1, "mbondi2"},
              {VKMD_GB_OBC2, "mbondi2"},
              {VKMD_GB_GBN, "bondi"},
              {VKMD_GB_GBN2, "mbondi3"}};
#define MODEL_COUNT (int)(sizeof models / sizeof *models)

/* Worst figures per model and positions mode. */
static double worst_e[VKMD_GB_MODEL_COUNT][3], worst_f[VKMD_GB_MODEL_COUNT][3];
static double villin_ms[3]; /* device time of the pass, villin, per mode (last case) */

static vkmd_result load(const char *system, const char *set, vkmd_system *out)
{
    char top[512], crd[512];
    snprintf(top, sizeof top, "%s/gb_%s_%s.prmtop", GEN, system, set);
    snprintf(crd, sizeof crd, "%s/%s.inpcrd", GEN, system);
    return vkmd_system_load(top, crd, out);
}

static double rel(double a, double b)
{
    return fabs(a - b) / fmax(fabs(b), 1e-12);
}

/* The device's buffers for one system in one positions mode. */
typedef struct device_sys {
    vkmd_vk_buffer pos, pos_x;
    vkmd_accum acc;
    double *xyz; /* the positions the device holds, double */
    int mode;
} device_sys;

static void device_sys_create(vkmd_vk_context *ctx, const vkmd_system *sys, int mode, device_sys *d)
{
    const int32_t n = sys->atom_count;
    memset(d, 0, sizeof *d);
    d->mode = mode;
    d->xyz = calloc(3 * (size_t)n, sizeof *d->xyz);
    CHECK_OK(vkmd_positions_create(ctx, n, 0, &d->pos));
    CHECK_OK(vkmd_positions_create_extra(ctx, n, mode, 0, &d->pos_x));
    CHECK_OK(vkmd_positions_upload_mode(ctx, &d->pos, &d->pos_x, mode, sys->positions, n));
    CHECK_OK(vkmd_positions_readback_mode(ctx, &d->pos, &d->pos_x, mode, d->xyz, n));
    CHECK_OK(vkmd_accum_create(ctx, n, 0, &d->acc));
}

static void device_sys_destroy(vkmd_vk_context *ctx, device_sys *d)
{
    vkmd_accum_destroy(ctx, &d->acc);
    vkmd_vk_buffer_destroy(ctx, &d->pos_x);
    vkmd_vk_buffer_destroy(ctx, &d->pos);
    free(d->xyz);
}

/* One recorded evaluation: clear, the pass (timed), read back the raw sums. */
static void evaluate(vkmd_vk_context *ctx, const vkmd_pass_gb *pass, const device_sys *d,
                     int with_energy, const vkmd_vk_timer *timer, int64_t *raw_forces,
                     int64_t *raw_energy, double *out_ms)
{
    vkmd_vk_cmd cmd = {0};
    CHECK_OK(vkmd_vk_cmd_create(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_begin(ctx, &cmd));
    if (timer)
        vkmd_vk_timer_record_reset(cmd.cb, timer);
    vkmd_accum_record_clear(cmd.cb, &d->acc);
    if (timer)
        vkmd_vk_timer_record_mark(cmd.cb, timer, 0);
    vkmd_pass_gb_record(pass, cmd.cb, with_energy);
    if (timer)
        vkmd_vk_timer_record_mark(cmd.cb, timer, 1);
    vkmd_vk_barrier_compute_to_transfer(cmd.cb);
    CHECK_OK(vkmd_vk_cmd_end(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_submit_wait(ctx, &cmd));
    CHECK_OK(vkmd_vk_buffer_readback(ctx, &d->acc.forces, 0, raw_forces, d->acc.forces.size));
    CHECK_OK(vkmd_vk_buffer_readback(ctx, &d->acc.energies, 0, raw_energy,
                                     VKMD_ENERGY_SLOT_COUNT * sizeof(int64_t)));
    double ns = 0;
    if (timer && vkmd_vk_timer_elapsed_ns(ctx, timer, 0, 1, &ns) == VKMD_OK && out_ms)
        *out_ms = ns * 1e-6;
    vkmd_vk_cmd_destroy(ctx, &cmd);
}

static void check_case(vkmd_vk_context *ctx, const vkmd_vk_timer *timer, const char *system,
                       int model, const vkmd_system *sys, const device_sys *d,
                       vkmd_gb_settings settings, const char *what)
{
    const int32_t n = sys->atom_count;
    vkmd_gb_params p;
    CHECK_OK(vkmd_gb_params_build(sys, &settings, &p));
    double *f_ref = calloc(3 * (size_t)n, sizeof *f_ref), *f_dev = calloc(3 * (size_t)n, 8);
    int64_t *raw[3], eraw[3][VKMD_ENERGY_SLOT_COUNT];
    for (int k = 0; k < 3; ++k)
        raw[k] = calloc(3 * (size_t)n, sizeof(int64_t));
    double e_ref = 0, np_ref = 0;
    CHECK_OK(ref_gb_compute(&p, d->xyz, &e_ref, &np_ref, f_ref, NULL));

    vkmd_pass_gb *pass = NULL;
    const vkmd_pass_gb_desc desc = {.positions = &d->pos,
                                    .positions_x = d->mode ? &d->pos_x : NULL,
                                    .positions_mode = d->mode,
                                    .accum = &d->acc};
    CHECK_OK(vkmd_pass_gb_create(ctx, &p, &desc, &pass));
    double ms = 0;
    if (pass) {
        evaluate(ctx, pass, d, 1, timer, raw[0], eraw[0], &ms);
        evaluate(ctx, pass, d, 0, NULL, raw[1], eraw[1], NULL);
        evaluate(ctx, pass, d, 1, NULL, raw[2], eraw[2], NULL);
    }
    vkmd_pass_gb_destroy(ctx, pass);
    for (int32_t a = 0; a < n; ++a)
        for (int c = 0; c < 3; ++c)
            f_dev[3 * a + c] = (double)raw[0][VKMD_FORCE_INDEX(c, a, n)] * VKMD_FIXED_INV_SCALE;
    const double e_gb = (double)eraw[0][VKMD_ENERGY_GB] * VKMD_FIXED_INV_SCALE;
    const double e_np = (double)eraw[0][VKMD_ENERGY_NONPOLAR] * VKMD_FIXED_INV_SCALE;
    const double de = rel(e_gb, e_ref);
    const double dnp = settings.nonpolar ? rel(e_np, np_ref) : fabs(e_np);
    const double df = rms_rel_error(f_dev, f_ref, 3 * n);
    const double dmax = max_abs_error(f_dev, f_ref, 3 * n) / rms(f_ref, 3 * n);
    printf("  %-6s %-5s %-11s %-24s E_gb %13.5f (rel %.1e)  E_ace %9.5f (rel %.1e)  F rms-rel "
           "%.1e max %.1e  %.2f ms\n",
           system, vkmd_gb_model_name(settings.model), mode_names[d->mode], what, e_gb, de, e_np,
           dnp, df, dmax, ms);
    CHECK_MSG(de <= TOL_FP32_ENERGY_REL, "%s %s: GB energy rel error %.3e", system, what, de);
    CHECK_MSG(settings.nonpolar ? dnp <= TOL_FP32_ENERGY_REL : e_np == 0,
              "%s %s: nonpolar energy %.6f (ref %.6f)", system, what, e_np, np_ref);
    CHECK_MSG(df <= TOL_FP32_FORCE_RMS, "%s %s: force RMS-rel error %.3e", system, what, df);
    CHECK_MSG(dmax <= TOL_FP32_FORCE_MAX, "%s %s: max force error %.3e RMS", system, what, dmax);
    CHECK_MSG(!memcmp(raw[0], raw[1], 3 * (size_t)n * sizeof(int64_t)),
              "%s %s: forces without energies differ in their bits", system, what);
    CHECK_MSG(!memcmp(raw[0], raw[2], 3 * (size_t)n * sizeof(int64_t)) &&
                  !memcmp(eraw[0], eraw[2], sizeof eraw[0]),
              "%s %s: a second evaluation differs in its bits", system, what);
    worst_e[model][d->mode] = fmax(worst_e[model][d->mode], fmax(de, settings.nonpolar ? dnp : 0));
    worst_f[model][d->mode] = fmax(worst_f[model][d->mode], df);
    if (!strcmp(system, "villin"))
        villin_ms[d->mode] = ms;
    for (int k = 0; k < 3; ++k)
        free(raw[k]);
    free(f_ref);
    free(f_dev);
    vkmd_gb_params_destroy(&p);
}

static void check_pass(vkmd_vk_context *ctx, const vkmd_vk_timer *timer)
{
    static const char *const systems[2] = {"ala2", "villin"};
    for (int si = 0; si < 2; ++si)
        for (int m = 0; m < MODEL_COUNT; ++m) {
            char name[32];
            snprintf(name, sizeof name, "%s_vac", systems[si]);
            vkmd_system sys = {0};
            CHECK_OK(load(name, models[m].set, &sys));
            if (!sys.positions)
                continue;
            for (int mode = 0; mode < 3; ++mode) {
                device_sys d;
                device_sys_create(ctx, &sys, mode, &d);
                const vkmd_gb_settings base = {.model = models[m].model};
                vkmd_gb_settings s = base;
                check_case(ctx, timer, systems[si], models[m].model, &sys, &d, s, "plain");
                s.salt_molar = 0.15;
                check_case(ctx, timer, systems[si], models[m].model, &sys, &d, s, "salt");
                s = base;
                s.nonpolar = 1;
                check_case(ctx, timer, systems[si], models[m].model, &sys, &d, s, "ACE");
                s.salt_molar = 0.15;
                check_case(ctx, timer, systems[si], models[m].model, &sys, &d, s, "salt ACE");
                if (si == 1 && models[m].model == VKMD_GB_GBN2) {
                    s.cutoff_a = 12.0;
                    check_case(ctx, timer, systems[si], models[m].model, &sys, &d, s,
                               "salt ACE cutoff 12 A");
                }
                device_sys_destroy(ctx, &d);
            }
            vkmd_system_destroy(&sys);
        }
}

/* The whole force field with GB against vkmd_ref_compute (villin, salt and
 * ACE, every model and positions mode). */
static void check_forcefield(vkmd_vk_context *ctx)
{
    for (int m = 0; m < MODEL_COUNT; ++m)
        for (int mode = 0; mode < 3; ++mode) {
            vkmd_system sys = {0};
            CHECK_OK(load("villin_vac", models[m].set, &sys));
            if (!sys.positions)
                continue;
            const int32_t n = sys.atom_count;
            vkmd_ff_settings s;
            memset(&s, 0, sizeof s);
            s.positions = mode;
            s.gb = (vkmd_gb_settings){.model = models[m].model, .salt_molar = 0.15, .nonpolar = 1};
            CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
            vkmd_forcefield *ff = NULL;
            const vkmd_forcefield_desc fd = {.settings = &s};
            CHECK_OK(vkmd_forcefield_create(ctx, &sys, &fd, &ff));
            if (!ff) {
                vkmd_system_destroy(&sys);
                continue;
            }
            double *f_dev = calloc(3 * (size_t)n, sizeof *f_dev);
            double *f_ref = calloc(3 * (size_t)n, sizeof *f_ref);
            vkmd_energy e_dev, e_ref;
            CHECK_OK(vkmd_forcefield_evaluate(ctx, ff, NULL, &e_dev, f_dev));
            /* the reference on the positions the device holds */
            CHECK_OK(vkmd_forcefield_read_positions(ctx, ff, sys.positions));
            CHECK_OK(vkmd_ref_compute(&sys, &s, &e_ref, f_ref));
            const double dgb = rel(e_dev.gb, e_ref.gb), dnp = rel(e_dev.nonpolar, e_ref.nonpolar);
            const double dt = rel(e_dev.total, e_ref.total);
            const double df = rms_rel_error(f_dev, f_ref, 3 * n);
            printf("  force field villin %-5s %-11s E_gb %12.5f (rel %.1e) E_ace %9.5f (rel "
                   "%.1e) total %12.5f (ref %12.5f, rel %.1e) F rms-rel %.1e\n",
                   vkmd_gb_model_name(models[m].model), mode_names[mode], e_dev.gb, dgb,
                   e_dev.nonpolar, dnp, e_dev.total, e_ref.total, dt, df);
            CHECK_MSG(dgb <= TOL_FP32_ENERGY_REL && dnp <= TOL_FP32_ENERGY_REL,
                      "force field %s: GB %.3e, nonpolar %.3e", vkmd_gb_model_name(s.gb.model), dgb,
                      dnp);
            CHECK_MSG(dt <= TOL_FP32_ENERGY_REL, "force field %s: total rel error %.3e",
                      vkmd_gb_model_name(s.gb.model), dt);
            CHECK_MSG(df <= TOL_FP32_FORCE_RMS, "force field %s: force RMS-rel error %.3e",
                      vkmd_gb_model_name(s.gb.model), df);
            free(f_dev);
            free(f_ref);
            vkmd_forcefield_destroy(ctx, ff);
            vkmd_system_destroy(&sys);
        }
}

/* One MD run of ala2 (velocity Verlet, 1 fs, H bonds constrained) with GB
 * settings `gb` (model NONE: none): the step-0 energies, FIRE, and
 * |E_400 - E_0|. */
static double run_md(vkmd_vk_context *ctx, vkmd_gb_settings gb, const char *what)
{
    double drift = -1;
    vkmd_system sys = {0};
    CHECK_OK(load("ala2_vac", "mbondi2", &sys));
    if (!sys.positions)
        return drift;
    vkmd_ff_settings s;
    memset(&s, 0, sizeof s);
    s.gb = gb;
    CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
    const vkmd_md_desc md_desc = {
        .settings = &s, .integrator = VKMD_INTEGRATOR_VERLET, .dt_fs = 1.0, .com_every = -1};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, &sys, &md_desc, &md));
    if (!md) {
        vkmd_system_destroy(&sys);
        return drift;
    }
    /* the reference on the MD's (constrained) start */
    vkmd_md_report r0, r1;
    CHECK_OK(vkmd_md_read(ctx, md, &r0, sys.positions, NULL));
    vkmd_energy e_ref;
    CHECK_OK(vkmd_ref_compute(&sys, &s, &e_ref, NULL));
    const double dgb = gb.model ? rel(r0.potential.gb, e_ref.gb) : 0;
    const double dnp = gb.nonpolar ? rel(r0.potential.nonpolar, e_ref.nonpolar) : 0;
    const double dt = rel(r0.potential.total, e_ref.total);
    vkmd_minimize_result mr = {0};
    CHECK_OK(vkmd_md_minimize(ctx, md, NULL, &mr));
    CHECK_OK(vkmd_md_init_velocities(ctx, md, 300.0, 7));
    CHECK_OK(vkmd_md_read(ctx, md, &r0, NULL, NULL));
    CHECK_OK(vkmd_md_step(ctx, md, 400));
    CHECK_OK(vkmd_md_read(ctx, md, &r1, NULL, NULL));
    drift = fabs(r1.total - r0.total);
    printf("  MD ala2 %-18s step 0: E_gb rel %.1e, E_ace rel %.1e, total rel %.1e; FIRE %.3f -> "
           "%.3f kcal/mol in %d moves; NVE 400 x 1 fs: E %.4f -> %.4f (|dE| %.4f), T %.1f K\n",
           what, dgb, dnp, dt, mr.energy_initial, mr.energy_final, mr.iterations, r0.total,
           r1.total, drift, r1.temperature_k);
    CHECK_MSG(dgb <= TOL_FP32_ENERGY_REL && dnp <= TOL_FP32_ENERGY_REL && dt <= TOL_FP32_ENERGY_REL,
              "MD %s step 0: GB %.3e, nonpolar %.3e, total %.3e", what, dgb, dnp, dt);
    CHECK_MSG(mr.energy_final < mr.energy_initial, "FIRE %s: %.4f -> %.4f", what, mr.energy_initial,
              mr.energy_final);
    CHECK_MSG(isfinite(r1.total), "MD %s: total %g", what, r1.total);
    vkmd_md_destroy(ctx, md);
    vkmd_system_destroy(&sys);
    return drift;
}

/* MD (pass by pass: vacuum) and the FIRE minimiser with GB in the force
 * field; the NVE drift with GB within twice that of the same run without
 * (plus 0.01 kcal/mol): GB's forces are those of its energy. */
static void check_md(vkmd_vk_context *ctx)
{
    const double without = run_md(ctx, (vkmd_gb_settings){0}, "vacuum");
    const double with =
        run_md(ctx, (vkmd_gb_settings){.model = VKMD_GB_OBC2, .salt_molar = 0.15, .nonpolar = 1},
               "obc2 salt ACE");
    CHECK_MSG(with >= 0 && without >= 0 && with <= 2 * without + 0.01,
              "NVE drift %.4f kcal/mol with GB, %.4f without", with, without);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_gb", &ctx);
    if (early >= 0)
        return early;
    vkmd_vk_timer timer = {0};
    const int timed = vkmd_vk_timer_create(ctx, 2, &timer) == VKMD_OK;
    printf("generalized Born pass vs reference (kcal/mol; device time of the three dispatches):\n");
    check_pass(ctx, timed ? &timer : NULL);
    printf("worst figures per model and positions mode (energy rel, force RMS-rel):\n");
    for (int m = 0; m < MODEL_COUNT; ++m) {
        const vkmd_gb_model g = models[m].model;
        printf("  %-5s", vkmd_gb_model_name(g));
        for (int mode = 0; mode < 3; ++mode)
            printf("  %-11s %.1e %.1e", mode_names[mode], worst_e[g][mode], worst_f[g][mode]);
        printf("\n");
    }
    if (timed)
        printf("villin GB pass per evaluation: %.2f ms fp32, %.2f ms split-float, %.2f ms "
               "split-int\n",
               villin_ms[0], villin_ms[1], villin_ms[2]);
    printf("whole force field with GB vs vkmd_ref_compute:\n");
    check_forcefield(ctx);
    printf("MD and minimiser with GB:\n");
    check_md(ctx);
    vkmd_vk_timer_destroy(ctx, &timer);
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_gb");
}
