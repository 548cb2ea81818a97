/* vkmd run: molecular dynamics of a system on a Vulkan device
 * (engine/sim/md.h): energies to energy.csv, frames to traj.dcd, the last
 * frame to final.pdb, a progress bar (or plain lines when stderr is not a
 * terminal) and, with --json, a summary on stdout. With a display (and
 * without --no-window) a viewer window (viewer/viewer.h) draws the system
 * from the simulation's buffers between pieces of steps. */
#include "args.h"
#include "commands.h"
#include "json.h"
#include "run_fault.h"
#include "run_output.h"
#include "core/log.h"
#include "core/units.h"
#include "io/checkpoint.h"
#include "forces/positions.h"
#include "precision_options.h"
#include "io/dcd.h"
#include "io/load.h"
#include "io/pdb.h"
#include "sim/md.h"
#include "sim/minimize.h"
#include "system/hmr.h"
#include "vk/context.h"
#include "vk/check.h"
#include "window_options.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct run_request {
    const char *system, *coords, *device, *out_dir;
    int64_t steps, report_every, traj_every, equilibrate;
    vkmd_md_desc md;
    vkmd_ff_settings ff;
    double hmr_mass;
    int minimize, json;
    double min_tol;
    int min_iterations;
    const char *restart;      /* checkpoint to continue from */
    int64_t checkpoint_every; /* steps; -1 only at the end and on a signal */
    window_options win;
    precision_options precision;  /* --precision / --positions / --nonbonded */
    vkmd_precision_choice choice; /* what they resolved to */
} run_request;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vkmd run SYSTEM [options]\n"
            "  SYSTEM                 AMBER prmtop, or water:N (N TIP3P waters)\n"
            "  --coords FILE          coordinates: inpcrd, rst7 or pdb (default: SYSTEM's\n"
            "                         basename .inpcrd or .rst7)\n"
            "  --steps N              steps to run (default 10000)\n"
            "  --dt FS                time step in fs (default 2)\n"
            "  --integrator langevin|verlet   Langevin middle (default) or velocity Verlet (NVE)\n"
            "  --temperature K        bath and initial temperature (default 300)\n"
            "  --friction PER_PS      Langevin friction in 1/ps (default 1)\n"
            "  --constraints none|hbonds   bonds to hydrogen fixed (default hbonds)\n"
            "  --rigid-water yes|no   SETTLE waters (default yes)\n"
            "  --constraint-tol T     relative constraint tolerance (default 1e-5)\n"
            "  --hmr MASS             hydrogen mass repartitioning to MASS amu (e.g. 1.5 or 3\n"
            "                         for 4 fs steps; default off)\n"
            "  --minimize             minimise the energy on the device before dynamics\n"
            "  --min-tol F            minimiser force tolerance, kcal/mol/A (default: engine's)\n"
            "  --equilibrate N        N Langevin steps at --temperature before the run, not\n"
            "                         reported (e.g. before an NVE run; default 0)\n"
            "  --seed S               random seed for velocities and Langevin noise (default 1)\n"
            "  --com-every N          remove centre-of-mass motion every N steps (default 100;\n"
            "                         0 never)\n"
            "  --report-every N       energy.csv row and progress every N steps (default 1000)\n"
            "  --traj-every N         traj.dcd frame every N steps (default: --report-every;\n"
            "                         0 no trajectory)\n"
            "  --out DIR              output directory (default vkmd_run; created)\n"
            "  --checkpoint-every N   write DIR/checkpoint.chk every N steps, a multiple of\n"
            "                         --report-every (default: the multiple nearest above\n"
            "                         10000; 0: only at the end and on SIGINT/SIGTERM)\n"
            "  --restart FILE         continue the run that wrote checkpoint FILE: give the\n"
            "                         same options (--steps may grow); DIR's energy.csv and\n"
            "                         traj.dcd are cut back to the checkpoint and continued\n"
            "  --cutoff A             non-bonded cutoff in A (default 9)\n" PRECISION_OPTIONS_USAGE
            "  --ewald-tolerance T    Ewald error tolerance (default 5e-4)\n"
            "  --device gpu|N|NAME    Vulkan device (default: the best one)\n"
            "  --no-window            headless even when a display is available\n"
            "  --steps-per-frame N    with a window: steps between frames (default 10; + and -\n"
            "                         keys change it)\n"
            "  --screenshot FILE      with a window: write FILE (PNG) after --frames frames\n"
            "  --color MODE           with a window: element (default), velocity (local\n"
            "                         temperature), force (|F|) or replica; c key cycles\n"
            "  --frames N             with a window: stop after N frames (the run ends at the\n"
            "                         next report step, with its checkpoint)\n"
            "  --json                 summary as one JSON object on stdout\n");
}

static vkmd_result parse(int argc, char **argv, run_request *q)
{
    vkmd_result r = VKMD_OK;
    int seed = 1, com = 100, minimize_iter = 0;
    const char *traj = NULL;
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i], *v = NULL;
        double dv = 0;
        int handled = 0;
        r = precision_options_parse(&q->precision, argc, argv, &i, &handled);
        if (handled || r != VKMD_OK)
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--coords")) {
            ARGS_VALUE();
            q->coords = v;
        } else if (!strcmp(a, "--steps") || !strcmp(a, "--report-every") ||
                   !strcmp(a, "--equilibrate")) {
            ARGS_VALUE();
            if (v && (r = args_double(a, v, 0, 1e15, &dv)) == VKMD_OK) {
                if (dv != floor(dv))
                    r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: '%s' is not a whole number", a,
                                  v);
                int64_t n = (int64_t)dv;
                if (!strcmp(a, "--steps"))
                    q->steps = n;
                else if (!strcmp(a, "--report-every"))
                    q->report_every = n > 0 ? n : -1;
                else
                    q->equilibrate = n;
            }
        } else if (!strcmp(a, "--traj-every")) {
            ARGS_VALUE();
            traj = v;
        } else if (!strcmp(a, "--dt")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-3, 10, &q->md.dt_fs);
        } else if (!strcmp(a, "--integrator")) {
            ARGS_VALUE();
            if (v && !strcmp(v, "langevin"))
                q->md.integrator = VKMD_INTEGRATOR_LANGEVIN;
            else if (v && !strcmp(v, "verlet"))
                q->md.integrator = VKMD_INTEGRATOR_VERLET;
            else if (v)
                r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                              "--integrator: '%s' is not langevin or verlet", v);
        } else if (!strcmp(a, "--temperature")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-3, 1e4, &q->md.temperature_k);
        } else if (!strcmp(a, "--friction")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-6, 1e3, &q->md.friction_per_ps);
        } else if (!strcmp(a, "--constraints")) {
            ARGS_VALUE();
            if (v && !strcmp(v, "hbonds"))
                q->md.constraints = VKMD_CONSTRAINTS_HBONDS;
            else if (v && !strcmp(v, "none"))
                q->md.constraints = VKMD_CONSTRAINTS_NONE;
            else if (v)
                r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                              "--constraints: '%s' is not none or hbonds", v);
        } else if (!strcmp(a, "--rigid-water")) {
            ARGS_VALUE();
            if (v && !strcmp(v, "yes"))
                q->md.flexible_water = 0;
            else if (v && !strcmp(v, "no"))
                q->md.flexible_water = 1;
            else if (v)
                r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "--rigid-water: '%s' is not yes or no",
                              v);
        } else if (!strcmp(a, "--constraint-tol")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-10, 0.01, &q->md.constraint_tol);
        } else if (!strcmp(a, "--hmr")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1.0, 10.0, &q->hmr_mass);
        } else if (!strcmp(a, "--minimize")) {
            q->minimize = 1;
        } else if (!strcmp(a, "--min-tol")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-6, 1e4, &q->min_tol);
        } else if (!strcmp(a, "--min-iterations")) {
            ARGS_VALUE();
            if (v)
                r = args_int(a, v, 1, 10000000, &minimize_iter);
        } else if (!strcmp(a, "--seed")) {
            ARGS_VALUE();
            if (v)
                r = args_int(a, v, 0, 2147483647, &seed);
        } else if (!strcmp(a, "--com-every")) {
            ARGS_VALUE();
            if (v)
                r = args_int(a, v, 0, 2147483647, &com);
        } else if (!strcmp(a, "--out")) {
            ARGS_VALUE();
            q->out_dir = v;
        } else if (!strcmp(a, "--cutoff")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-3, 1e4, &q->ff.cutoff_a);
        } else if (!strcmp(a, "--ewald-tolerance")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-12, 0.49, &q->ff.ewald_tolerance);
        } else if (!strcmp(a, "--device")) {
            ARGS_VALUE();
            q->device = v;
        } else if (!strcmp(a, "--checkpoint-every")) {
            ARGS_VALUE();
            if (v && (r = args_double(a, v, 0, 1e15, &dv)) == VKMD_OK) {
                if (dv != floor(dv))
                    r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: '%s' is not a whole number", a,
                                  v);
                q->checkpoint_every = dv > 0 ? (int64_t)dv : -1;
            }
        } else if (!strcmp(a, "--restart")) {
            ARGS_VALUE();
            q->restart = v;
        } else if (window_options_parse(argc, argv, &i, &q->win, &r)) {
            /* --no-window, --steps-per-frame, --color, --screenshot, --frames */
        } else if (!strcmp(a, "--json")) {
            q->json = 1;
        } else if (a[0] == '-' && a[1]) {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown option '%s' (see --help)", a);
        } else if (!q->system) {
            q->system = a;
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unexpected argument '%s'", a);
        }
    }
    if (r == VKMD_OK && !q->system)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no SYSTEM given (see vkmd run --help)");
    if (r == VKMD_OK && traj) {
        double dv = 0;
        r = args_double("--traj-every", traj, 0, 1e15, &dv);
        q->traj_every = dv > 0 ? (int64_t)dv : -1;
    }
    q->md.seed = (uint64_t)seed;
    q->md.com_every = com > 0 ? com : -1;
    q->min_iterations = minimize_iter;
    return r;
}

static vkmd_result make_dir(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot create the output directory: %s", path,
                         strerror(errno));
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return vkmd_fail(VKMD_ERROR_IO, "%s: exists and is not a directory", path);
    return VKMD_OK;
}

/* SIGINT / SIGTERM: the run stops at the next report, writes a checkpoint
 * and exits with RUN_EXIT_INTERRUPTED. The handler then restores the default
 * action, so a second signal stops at once (the last checkpoint and every
 * output row and frame written so far stay valid). */
#define RUN_EXIT_INTERRUPTED 130
#define RUN_EXIT_BLOWN_UP    3
static volatile sig_atomic_t run_stop_signal = 0;

static void on_signal(int sig)
{
    run_stop_signal = sig;
    signal(sig, SIG_DFL);
}

/* Everything that changes the trajectory, one "key value" line each; a
 * restart must give the same (checkpoint.h stores it). */
static void settings_text(const run_request *q, const vkmd_ff_settings *ff, char *out, size_t size)
{
    snprintf(
        out, size,
        "system %s\n"
        "integrator %s\ndt_fs %.17g\ntemperature_k %.17g\nfriction_per_ps %.17g\n"
        "constraints %s\nrigid_water %s\nconstraint_tol %.17g\nhmr_amu %.17g\n"
        "cutoff_a %.17g\newald_tolerance %.17g\npme_grid %dx%dx%d\ncom_every %d\n"
        "seed %llu\nreport_every %lld\ntraj_every %lld\n",
        q->system, q->md.integrator == VKMD_INTEGRATOR_VERLET ? "verlet" : "langevin",
        q->md.dt_fs > 0 ? q->md.dt_fs : 2.0, q->md.temperature_k > 0 ? q->md.temperature_k : 300.0,
        q->md.friction_per_ps > 0 ? q->md.friction_per_ps : 1.0,
        q->md.constraints == VKMD_CONSTRAINTS_NONE ? "none" : "hbonds",
        q->md.flexible_water ? "no" : "yes", q->md.constraint_tol > 0 ? q->md.constraint_tol : 1e-5,
        q->hmr_mass, ff->cutoff_a, ff->ewald_tolerance, ff->pme_grid[0], ff->pme_grid[1],
        ff->pme_grid[2], q->md.com_every, (unsigned long long)q->md.seed,
        (long long)q->report_every, (long long)q->traj_every);
    {
        const size_t len = strlen(out);
        snprintf(out + len, size - len, "precision %s\npositions %s\n",
                 vkmd_precision_name(q->choice.chosen), vkmd_positions_mode_name(ff->positions));
    }
    if (ff->nonbonded_fp16) {
        const size_t len = strlen(out);
        snprintf(out + len, size - len, "nonbonded %s beyond %.17g A\n",
                 ff->nonbonded_fp16 == VKMD_LJ_FP16_POWERS ? "fp16-powers" : "fp16",
                 ff->fp16_min_r_a);
    }
}

/* Compares the checkpoint's settings with this run's, line by line. */
static vkmd_result check_settings(const vkmd_checkpoint *c, const char *now, const char *path)
{
    for (const char *line = now; *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        char key[64], want[256];
        const char *sp = memchr(line, ' ', len);
        if (sp && (size_t)(sp - line) < sizeof key) {
            memcpy(key, line, (size_t)(sp - line));
            key[sp - line] = 0;
            const size_t vl = len - (size_t)(sp - line) - 1;
            char value[256];
            snprintf(value, sizeof value, "%.*s", (int)vl, sp + 1);
            if (!vkmd_checkpoint_setting(c, key, want, sizeof want))
                return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: the checkpoint has no '%s'",
                                 path, key);
            if (strcmp(want, value))
                return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                 "%s: the checkpoint was written with %s %s, this run has %s %s: "
                                 "give the same options as the run that wrote it",
                                 path, key, want, key, value);
        }
        line = end ? end + 1 : line + len;
    }
    char want[256];
    if (!strstr(now, "\nnonbonded ") && vkmd_checkpoint_setting(c, "nonbonded", want, sizeof want))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: the checkpoint was written with --nonbonded %s, this run uses fp32 "
                         "LJ: give the same options as the run that wrote it",
                         path, want);
    return VKMD_OK;
}

/* --precision etc. for this run. A restart with the default (auto) and no
 * override takes the checkpoint's choice instead of calibrating again:
 * timings vary, the continuation must not. */
static vkmd_result resolve_precision(run_request *q, vkmd_vk_context *ctx, const vkmd_system *sys,
                                     const vkmd_checkpoint *ck)
{
    precision_options o = q->precision;
    char want[256];
    if (ck && o.precision == VKMD_PRECISION_AUTO && o.positions < 0 && !o.lj_set &&
        vkmd_checkpoint_setting(ck, "precision", want, sizeof want)) {
        vkmd_result r = vkmd_precision_parse(want, &o.precision);
        if (r == VKMD_OK && vkmd_checkpoint_setting(ck, "positions", want, sizeof want))
            r = vkmd_positions_mode_parse(want, &o.positions);
        if (r == VKMD_OK && vkmd_checkpoint_setting(ck, "nonbonded", want, sizeof want)) {
            char form[64] = "";
            double min_r = 0;
            o.lj_set = 1;
            if (sscanf(want, "%63s beyond %lf", form, &min_r) == 2) {
                char spec[128];
                snprintf(spec, sizeof spec, "%s:%.17g", form, min_r);
                r = args_nonbonded("nonbonded", spec, &o.lj, &o.lj_min_r_a);
            }
        }
        if (r != VKMD_OK)
            return r;
        r = precision_options_resolve(&o, ctx, sys, &q->ff, &q->choice);
        q->choice.asked = VKMD_PRECISION_AUTO;
        snprintf(q->choice.reason, sizeof q->choice.reason, "restart: as the checkpoint");
        return r;
    }
    return precision_options_resolve(&o, ctx, sys, &q->ff, &q->choice);
}

static vkmd_result write_checkpoint(const char *path, const vkmd_system *sys, const char *settings,
                                    uint64_t seed, int64_t step, int64_t md_step, double dt_fs,
                                    double *x, double *v)
{
    vkmd_checkpoint c = {.atom_count = sys->atom_count,
                         .periodic = sys->box.periodic,
                         .fingerprint = vkmd_checkpoint_fingerprint(sys),
                         .step = step,
                         .md_step = md_step,
                         .time_ps = (double)step * dt_fs * 1e-3,
                         .box = {sys->box.len[0], sys->box.len[1], sys->box.len[2]},
                         .seed = seed,
                         .settings = (char *)settings,
                         .positions = x,
                         .velocities = v};
    return vkmd_checkpoint_write(path, &c);
}

static int finite_array(const double *a, size_t n)
{
    for (size_t k = 0; k < n; ++k)
        if (!isfinite(a[k]))
            return 0;
    return 1;
}

int cmd_run(int argc, char **argv)
{
    run_request q;
    memset(&q, 0, sizeof q);
    q.precision = (precision_options)PRECISION_OPTIONS_INIT;
    q.steps = 10000;
    q.report_every = 1000;
    q.out_dir = "vkmd_run";
    vkmd_result res = parse(argc, argv, &q);
    if (res == VKMD_OK && q.report_every < 0)
        q.report_every = q.steps > 0 ? q.steps : 1;
    if (q.traj_every == 0)
        q.traj_every = q.report_every;
    if (res == VKMD_OK && q.checkpoint_every == 0)
        q.checkpoint_every = ((10000 + q.report_every - 1) / q.report_every) * q.report_every;
    if (res == VKMD_OK && q.checkpoint_every > 0 && q.checkpoint_every % q.report_every != 0)
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "--checkpoint-every %lld is not a multiple of --report-every %lld "
                        "(checkpoints are written at reports)",
                        (long long)q.checkpoint_every, (long long)q.report_every);
    if (res == VKMD_OK)
        res = window_options_check(&q.win);
    if (res != VKMD_OK) {
        tool_error("run", res);
        return 2;
    }

    int exit_code = 1;
    vkmd_viewer *view = NULL;
    int view_stop = 0;
    vkmd_viewer_hud hud;
    memset(&hud, 0, sizeof hud);
    vkmd_system sys;
    memset(&sys, 0, sizeof sys);
    vkmd_checkpoint ck;
    memset(&ck, 0, sizeof ck);
    vkmd_vk_context *ctx = NULL;
    vkmd_md *md = NULL;
    vkmd_dcd_writer *dcd = NULL;
    run_csv *csv = NULL;
    run_progress prog;
    memset(&prog, 0, sizeof prog);
    int progress_on = 0;
    double *x = NULL, *v = NULL, *good_x = NULL, *good_v = NULL, *tt = NULL, *et = NULL;
    int64_t samples = 0;
    char path[4096], ck_path[4096], settings_all[2048];
    double t_sum = 0, wall = 0;
    vkmd_minimize_result minres;
    memset(&minres, 0, sizeof minres);
    int64_t last_ck = -1; /* step of the last good checkpoint written or read */
    char fault[1024] = "";

    VKMD_TRY(vkmd_system_load(q.system, q.coords, &sys));
    const char *source = q.coords ? q.coords : q.system;
    VKMD_TRY(vkmd_system_check_coordinates(&sys, q.ff.cutoff_a > 0 ? q.ff.cutoff_a : 9.0, source));
    VKMD_TRY(vkmd_ff_settings_resolve(&q.ff, &sys));
    if (q.hmr_mass > 0)
        VKMD_TRY(vkmd_system_repartition_hydrogen_mass(&sys, q.hmr_mass, NULL));
    if (q.restart) {
        VKMD_TRY(vkmd_checkpoint_read(q.restart, &ck));
        VKMD_TRY(vkmd_checkpoint_check_system(&ck, &sys, q.restart));
        if (ck.step > q.steps) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "%s: the checkpoint is at step %lld, beyond --steps %lld", q.restart,
                            (long long)ck.step, (long long)q.steps);
            goto cleanup;
        }
        if (ck.step % q.report_every != 0) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "%s: the checkpoint's step %lld is not a report step", q.restart,
                            (long long)ck.step);
            goto cleanup;
        }
        /* The checkpoint's positions are the state; the coordinates file only
         * supplied the topology's check above. */
        memcpy(sys.positions, ck.positions, sizeof(double) * 3 * (size_t)sys.atom_count);
        last_ck = ck.step;
    }
    VKMD_TRY(make_dir(q.out_dir));
    snprintf(ck_path, sizeof ck_path, "%s/checkpoint.chk", q.out_dir);

    vkmd_vk_context_desc cdesc = {.device = q.device && strcmp(q.device, "gpu") ? q.device : NULL};
    const vkmd_viewer_desc vd = {.title = q.system, .screenshot_dir = q.out_dir};
    VKMD_TRY(window_options_open("run", &q.win, vd, VKMD_VIEW_COLOR_ELEMENT, &cdesc, &view));
    VKMD_TRY(vkmd_vk_context_create(&cdesc, &ctx));
    VKMD_TRY(resolve_precision(&q, ctx, &sys, q.restart ? &ck : NULL));
    fprintf(stderr, "vkmd run: ");
    vkmd_precision_print(stderr, &q.choice);
    settings_text(&q, &q.ff, settings_all, sizeof settings_all);
    if (q.restart)
        VKMD_TRY(check_settings(&ck, settings_all, q.restart));
    q.md.settings = &q.ff;
    VKMD_TRY(vkmd_md_create(ctx, &sys, &q.md, &md));
    const double temp = q.md.temperature_k > 0 ? q.md.temperature_k : 300;
    int64_t base = 0;
    if (q.restart) {
        if (q.minimize || q.equilibrate > 0)
            fprintf(stderr, "vkmd run: restart: --minimize and --equilibrate were done by the run "
                            "that wrote the checkpoint; skipped\n");
        VKMD_TRY(vkmd_md_set_state(ctx, md, ck.positions, ck.velocities));
        VKMD_TRY(vkmd_md_set_step(ctx, md, ck.md_step));
        base = ck.md_step - ck.step;
        fprintf(stderr, "vkmd run: continuing from %s at step %lld (%.4f ps)\n", q.restart,
                (long long)ck.step, ck.time_ps);
    } else {
        if (q.minimize) {
            const vkmd_minimize_desc mdsc = {.force_tol = q.min_tol,
                                             .max_iterations = q.min_iterations};
            VKMD_TRY(vkmd_md_minimize(ctx, md, &mdsc, &minres));
            fprintf(stderr,
                    "vkmd run: minimised in %d iterations: %.4f -> %.4f kcal/mol, max force %.3g "
                    "kcal/mol/A%s\n",
                    minres.iterations, minres.energy_initial, minres.energy_final, minres.max_force,
                    minres.converged ? "" : " (not converged)");
        }
        if (!sys.velocities)
            VKMD_TRY(vkmd_md_init_velocities(ctx, md, temp, q.md.seed));
        if (q.equilibrate > 0) {
            /* Langevin at the bath temperature, then back to the run's integrator. */
            VKMD_TRY(vkmd_md_set_integrator(md, VKMD_INTEGRATOR_LANGEVIN));
            VKMD_TRY(vkmd_md_step(ctx, md, q.equilibrate));
            VKMD_TRY(vkmd_md_set_integrator(md, q.md.integrator));
            fprintf(stderr, "vkmd run: equilibrated %lld Langevin steps at %.1f K\n",
                    (long long)q.equilibrate, temp);
        }
        base = vkmd_md_steps_done(md);
    }

    const size_t n3 = 3 * (size_t)sys.atom_count;
    const int64_t nrep = q.steps / q.report_every + 2;
    x = malloc(sizeof *x * n3);
    v = malloc(sizeof *v * n3);
    good_x = malloc(sizeof *good_x * n3);
    good_v = malloc(sizeof *good_v * n3);
    tt = malloc(sizeof *tt * (size_t)nrep);
    et = malloc(sizeof *et * (size_t)nrep);
    if (!x || !v || !good_x || !good_v || !tt || !et) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "run: out of memory");
        goto cleanup;
    }
    const double dt = q.md.dt_fs > 0 ? q.md.dt_fs : 2.0;
    const char *integ = q.md.integrator == VKMD_INTEGRATOR_VERLET ? "verlet" : "langevin";
    char settings[1024];
    snprintf(settings, sizeof settings,
             "constraints %s (tolerance %g), rigid water %s, cutoff %g A, PME grid %dx%dx%d, "
             "Ewald tolerance %g, precision %s, %s positions, LJ %s beyond %g A, seed %llu, "
             "device %s",
             q.md.constraints == VKMD_CONSTRAINTS_NONE ? "none" : "hbonds",
             q.md.constraint_tol > 0 ? q.md.constraint_tol : 1e-5,
             q.md.flexible_water ? "no" : "yes", q.ff.cutoff_a, q.ff.pme_grid[0], q.ff.pme_grid[1],
             q.ff.pme_grid[2], q.ff.ewald_tolerance, vkmd_precision_name(q.choice.chosen),
             vkmd_positions_mode_name(q.ff.positions),
             q.ff.nonbonded_fp16 == VKMD_LJ_FP16_POWERS ? "fp16-powers"
             : q.ff.nonbonded_fp16                      ? "fp16"
                                                        : "fp32",
             q.ff.fp16_min_r_a, (unsigned long long)q.md.seed, ctx->info.name);
    const int verlet = q.md.integrator == VKMD_INTEGRATOR_VERLET;
    const run_csv_desc cd = {
        .system = q.system,
        .atom_count = sys.atom_count,
        .dof = vkmd_md_dof(md),
        .integrator = verlet ? "velocity-verlet" : "langevin-middle",
        .dt_fs = dt,
        .temperature_k = verlet ? 0 : temp,
        .friction_per_ps = verlet ? 0 : (q.md.friction_per_ps > 0 ? q.md.friction_per_ps : 1.0),
        .settings = settings,
        .append = q.restart != NULL};
    snprintf(path, sizeof path, "%s/energy.csv", q.out_dir);
    if (q.restart)
        VKMD_TRY(run_csv_truncate_after(path, ck.step));
    VKMD_TRY(run_csv_create(path, &cd, &csv));
    if (q.traj_every > 0) {
        snprintf(path, sizeof path, "%s/traj.dcd", q.out_dir);
        const vkmd_dcd_desc dd = {.atom_count = sys.atom_count,
                                  .periodic = sys.box.periodic,
                                  .dt_fs = dt,
                                  .steps_per_frame = (int32_t)q.traj_every,
                                  .first_step = q.traj_every,
                                  .title = "vkmd run"};
        if (q.restart) {
            VKMD_TRY(vkmd_dcd_writer_open_append(path, &dd, &dcd));
            const int64_t keep = ck.step / q.traj_every;
            if (vkmd_dcd_writer_frame_count(dcd) < keep) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s: has %d frames, the checkpoint at step %lld needs %lld: "
                                "frames are lost",
                                path, vkmd_dcd_writer_frame_count(dcd), (long long)ck.step,
                                (long long)keep);
                goto cleanup;
            }
            VKMD_TRY(vkmd_dcd_writer_truncate(dcd, (int32_t)keep));
        } else {
            VKMD_TRY(vkmd_dcd_writer_create(path, &dd, &dcd));
        }
    }

    /* Start: step 0 row (a fresh run), the first good state. */
    vkmd_md_report rep;
    char why[160];
    VKMD_TRY(vkmd_md_read(ctx, md, &rep, good_x, good_v));
    if (run_fault_report_bad(&rep, temp, why, sizeof why) || !finite_array(good_x, n3)) {
        res =
            vkmd_fail(VKMD_ERROR_NUMERIC,
                      "the starting state is not usable: %s (check the input, or --minimize)", why);
        goto cleanup;
    }
    int64_t good_md_step = vkmd_md_steps_done(md);
    int64_t done = q.restart ? ck.step : 0, last_report = done;
    run_energy_row row = {0,  0.0, rep.potential.total, rep.kinetic, rep.total, rep.temperature_k,
                          0.0};
    if (!q.restart) {
        /* The start state is the first checkpoint: a run that stops early
         * always leaves one to continue from. */
        VKMD_TRY(run_csv_write(csv, &row));
        VKMD_TRY(write_checkpoint(ck_path, &sys, settings_all, q.md.seed, 0, good_md_step, dt,
                                  good_x, good_v));
        last_ck = 0;
        VKMD_TRY(vkmd_md_set_state(ctx, md, good_x, good_v));
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    const double t0 = run_now_s();
    const run_progress_desc pd = {.last_step = q.steps > 0 ? q.steps : 1, .dt_fs = dt};
    run_progress_init(&prog, &pd, t0);
    progress_on = 1;
    double t_last = t0;
    const int64_t first = done;
    if (view) {
        const vkmd_forcefield *ff = vkmd_md_forcefield(md);
        const vkmd_render_sources src = {.positions = vkmd_forcefield_positions(ff),
                                         .velocities = vkmd_md_velocities_buffer(md),
                                         .forces = &vkmd_forcefield_accum(ff)->forces};
        VKMD_TRY(vkmd_viewer_attach(view, ctx, &sys, &src));
        hud = (vkmd_viewer_hud){.step = done,
                                .time_ps = (double)done * dt * 1e-3,
                                .temperature_k = rep.temperature_k,
                                .potential_kcal_mol = rep.potential.total,
                                .total_kcal_mol = rep.total,
                                .energies = 1,
                                .bath_k = temp};
    }
    while (done < q.steps && !((run_stop_signal || view_stop) && done % q.report_every == 0)) {
        int64_t next = (done / q.report_every + 1) * q.report_every;
        if (q.traj_every > 0) {
            int64_t nt = (done / q.traj_every + 1) * q.traj_every;
            if (nt < next)
                next = nt;
        }
        if (next > q.steps)
            next = q.steps;
        if (view && !view_stop) {
            /* A frame between pieces of steps; the HUD holds the last report. */
            vkmd_viewer_input in;
            hud.step = done;
            hud.time_ps = (double)done * dt * 1e-3;
            VKMD_TRY(vkmd_viewer_frame(view, ctx, &hud, &in));
            if (in.quit) {
                view_stop = 1;
                if (done % q.report_every != 0) {
                    fprintf(stderr,
                            "vkmd run: window closed at step %lld; running on to the next "
                            "report step, %lld\n",
                            (long long)done,
                            (long long)((done / q.report_every + 1) * q.report_every));
                } else if (last_ck != done) {
                    /* At a report step: good_x/good_v are this step's state. */
                    VKMD_TRY(write_checkpoint(ck_path, &sys, settings_all, q.md.seed, done,
                                              good_md_step, dt, good_x, good_v));
                    last_ck = done;
                }
                continue;
            }
            if (in.steps == 0)
                continue;
            if (next > done + in.steps)
                next = done + in.steps;
        }
        VKMD_TRY(vkmd_md_step(ctx, md, next - done));
        done = next;
        const int is_report = done % q.report_every == 0 || done == q.steps;
        const int is_frame = q.traj_every > 0 && done % q.traj_every == 0;
        if (!is_report && !is_frame)
            continue; /* a piece between frames of the window */
        res = vkmd_md_read(ctx, md, &rep, x, v);
        if (res == VKMD_ERROR_NUMERIC) /* e.g. a water torn apart: constraints singular */
            snprintf(why, sizeof why, "%s", vkmd_last_error());
        else if (res != VKMD_OK)
            goto cleanup;
        rep.step -= base;
        if (res != VKMD_OK || run_fault_report_bad(&rep, temp, why, sizeof why) ||
            !finite_array(x, n3) || !finite_array(v, n3)) {
            /* Nothing of this state is written; find the step and the atoms. */
            run_progress_finish(&prog);
            progress_on = 0;
            fprintf(stderr, "vkmd run: bad state at step %lld (%s); replaying from step %lld\n",
                    (long long)done, why, (long long)(good_md_step - base));
            VKMD_TRY(run_fault_diagnose(ctx, md, &sys, good_x, good_v, good_md_step, base,
                                        done - (good_md_step - base), temp, fault, sizeof fault));
            res = vkmd_fail(VKMD_ERROR_NUMERIC, "%s", fault);
            exit_code = RUN_EXIT_BLOWN_UP;
            goto cleanup;
        }
        if (is_frame)
            VKMD_TRY(vkmd_dcd_writer_append(dcd, x, &sys.box));
        memcpy(good_x, x, sizeof *x * n3);
        memcpy(good_v, v, sizeof *v * n3);
        good_md_step = vkmd_md_steps_done(md);
        if (is_report) {
            const double t = run_now_s();
            const double ns_day = run_ns_per_day(done - last_report, dt, t - t_last);
            t_last = t;
            last_report = done;
            row = (run_energy_row){done,
                                   (double)done * dt * 1e-3,
                                   rep.potential.total,
                                   rep.kinetic,
                                   rep.total,
                                   rep.temperature_k,
                                   ns_day};
            VKMD_TRY(run_csv_write(csv, &row));
            run_progress_update(&prog, done, ns_day, rep.temperature_k, t);
            hud.ns_per_day = ns_day;
            hud.temperature_k = rep.temperature_k;
            hud.potential_kcal_mol = rep.potential.total;
            hud.total_kcal_mol = rep.total;
            tt[samples] = (double)done * dt * 1e-3;
            et[samples] = rep.total;
            t_sum += rep.temperature_k;
            ++samples;
            if (done % q.report_every == 0) {
                /* A report step is where a checkpoint may be written; the
                 * neighbour list is rebuilt here in every run, so a restart
                 * from any report step continues bitwise. */
                const int due = (q.checkpoint_every > 0 && done % q.checkpoint_every == 0) ||
                                run_stop_signal || view_stop || done == q.steps;
                if (due) {
                    VKMD_TRY(write_checkpoint(ck_path, &sys, settings_all, q.md.seed, done,
                                              good_md_step, dt, x, v));
                    last_ck = done;
                }
                VKMD_TRY(vkmd_md_set_state(ctx, md, x, v));
            }
        }
    }
    wall = run_now_s() - t0;
    run_progress_finish(&prog);
    progress_on = 0;
    if (run_stop_signal && done < q.steps) {
        fprintf(stderr,
                "vkmd run: stopped by %s at step %lld; checkpoint %s is at step %lld: continue "
                "with the same options and --restart %s\n",
                run_stop_signal == SIGTERM ? "SIGTERM" : "SIGINT", (long long)done, ck_path,
                (long long)last_ck, ck_path);
        exit_code = RUN_EXIT_INTERRUPTED;
        goto cleanup;
    }
    if (view_stop && done < q.steps) {
        fprintf(stderr,
                "vkmd run: the window closed at step %lld; checkpoint %s is at step %lld "
                "(continue with the same options and --restart %s)\n",
                (long long)done, ck_path, (long long)last_ck, ck_path);
        q.steps = done;
    }
    if (view)
        fprintf(stderr, "vkmd run: %lld frames drawn\n", (long long)vkmd_viewer_frames(view));
    VKMD_TRY(vkmd_md_read(ctx, md, &rep, x, NULL));
    {
        vkmd_system out = sys;
        out.positions = x;
        snprintf(path, sizeof path, "%s/final.pdb", q.out_dir);
        VKMD_TRY(vkmd_pdb_write(path, &out));
    }
    double water_a = 0, hbond_rel = 0;
    VKMD_TRY(vkmd_md_constraint_violation(ctx, md, &water_a, &hbond_rel));
    vkmd_viewer_close(view, ctx); /* first, so its teardown is validated too */
    view = NULL;
    VKMD_TRY(vkmd_vk_context_check_validation(ctx));

    const double ns_day = run_ns_per_day(q.steps - first, dt, wall);
    const double mean_t = samples ? t_sum / (double)samples : rep.temperature_k;
    run_drift drift;
    memset(&drift, 0, sizeof drift);
    if (samples >= 2)
        VKMD_TRY(run_drift_fit(tt, et, (int32_t)samples, mean_t, vkmd_md_dof(md), &drift));
    if (q.json) {
        printf("{\"system\": ");
        json_string(stdout, q.system);
        printf(", \"device\": ");
        json_string(stdout, ctx->info.name);
        printf(", \"atoms\": %d, \"dof\": %lld, \"integrator\": \"%s\", \"dt_fs\": %g, "
               "\"steps\": %lld, \"first_step\": %lld, \"temperature_target_K\": %g, "
               "\"wall_s\": %.3f, "
               "\"ns_per_day\": %.4f, \"mean_temperature_K\": %.3f, "
               "\"final_total_kcal_mol\": %.6f, \"energy_drift_kcal_mol_per_ns\": %.6g, "
               "\"energy_drift_stderr_kcal_mol_per_ns\": %.6g, \"energy_drift_kT_per_ns_per_dof\": "
               "%.6g, "
               "\"max_water_violation_A\": %.3g, \"max_hbond_violation_rel\": %.3g",
               sys.atom_count, (long long)vkmd_md_dof(md), integ, dt, (long long)q.steps,
               (long long)first, temp, wall, ns_day, mean_t, rep.total, drift.slope_kcal_mol_per_ns,
               drift.slope_stderr_kcal_mol_per_ns, drift.kt_per_ns_per_dof, water_a, hbond_rel);
        if (q.minimize && !q.restart)
            printf(", \"minimize\": {\"iterations\": %d, \"energy_initial_kcal_mol\": %.6f, "
                   "\"energy_final_kcal_mol\": %.6f, \"max_force_kcal_mol_A\": %.6g, "
                   "\"converged\": %s}",
                   minres.iterations, minres.energy_initial, minres.energy_final, minres.max_force,
                   minres.converged ? "true" : "false");
        printf(", ");
        vkmd_precision_print_json(stdout, &q.choice);
        printf(", \"lj_precision\": \"%s\", \"lj_fp16_min_r_a\": %g",
               q.ff.nonbonded_fp16 == VKMD_LJ_FP16_POWERS ? "fp16-powers"
               : q.ff.nonbonded_fp16                      ? "fp16"
                                                          : "fp32",
               q.ff.nonbonded_fp16 ? q.ff.fp16_min_r_a : 0.0);
        printf(", \"outputs\": {\"energy\": \"energy.csv\", \"trajectory\": %s, "
               "\"final\": \"final.pdb\", \"checkpoint\": \"checkpoint.chk\"}}\n",
               q.traj_every > 0 ? "\"traj.dcd\"" : "null");
    } else {
        printf("vkmd run: %lld steps of %s in %.1f s on %s: %.3f ns/day, mean T %.2f K, "
               "energy drift %.4g kcal/mol/ns (%.3g kT/ns/dof); outputs in %s/\n",
               (long long)(q.steps - first), q.system, wall, ctx->info.name, ns_day, mean_t,
               drift.slope_kcal_mol_per_ns, drift.kt_per_ns_per_dof, q.out_dir);
    }
    exit_code = 0;
cleanup:
    if (exit_code != 0 && exit_code != RUN_EXIT_INTERRUPTED) {
        if (progress_on)
            run_progress_finish(&prog);
        tool_error("run", res);
        if (res == VKMD_ERROR_DEVICE_LOST)
            fprintf(stderr, "vkmd run: the GPU was lost (driver reset, hang or removal). ");
        else if (res == VKMD_ERROR_DEVICE_MEMORY)
            fprintf(stderr, "vkmd run: the GPU ran out of memory (a smaller system, or another "
                            "device with --device). ");
        if (last_ck >= 0)
            fprintf(stderr,
                    "vkmd run: the last good checkpoint, %s, is at step %lld; outputs hold every "
                    "good report and frame until the stop; continue with --restart %s\n",
                    ck_path, (long long)last_ck, ck_path);
        else if (res == VKMD_ERROR_DEVICE_LOST || res == VKMD_ERROR_DEVICE_MEMORY ||
                 exit_code == RUN_EXIT_BLOWN_UP)
            fprintf(stderr, "vkmd run: no checkpoint was written before the stop\n");
    }
    if (vkmd_dcd_writer_close(dcd) != VKMD_OK && exit_code == 0) {
        tool_error("run", VKMD_ERROR_IO);
        exit_code = 1;
    }
    if (run_csv_close(csv) != VKMD_OK && exit_code == 0) {
        tool_error("run", VKMD_ERROR_IO);
        exit_code = 1;
    }
    vkmd_viewer_close(view, ctx);
    if (ctx) {
        vkmd_md_destroy(ctx, md);
        vkmd_vk_context_destroy(ctx);
    }
    free(x);
    free(v);
    free(good_x);
    free(good_v);
    free(tt);
    free(et);
    vkmd_checkpoint_free(&ck);
    vkmd_system_destroy(&sys);
    return exit_code;
}
