/* vkmd run: molecular dynamics of a system on a Vulkan device through the
 * engine's run controller (engine/run/run.h: the loop, checkpoints,
 * restarts, blow-up replay, energy.csv, traj.dcd, final.pdb). This command
 * parses the options, draws the progress line, hosts the viewer window
 * (viewer/viewer.h) between pieces of steps, stops at the next report step
 * on SIGINT/SIGTERM and prints the summary (text, or JSON with --json). */
#include "args.h"
#include "commands.h"
#include "precision_options.h"
#include "run_console.h"
#include "run/run.h"
#include "run/run_summary.h"
#include "vk/context.h"
#include "window_options.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUN_EXIT_INTERRUPTED 130 /* SIGINT / SIGTERM: stopped at a report, checkpoint written */
#define RUN_EXIT_BLOWN_UP    3

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vkmd run SYSTEM [options]\n"
            "  SYSTEM                 AMBER prmtop, or water:N (N TIP3P waters)\n"
            "  --coords FILE          coordinates: inpcrd, rst7, ncrst (AMBER NetCDF), pdb or\n"
            "                         chk (default: SYSTEM's basename .inpcrd or .rst7)\n"
            "  --steps N              steps to run (default 10000)\n"
            "  --dt FS                time step in fs (default 2)\n"
            "  --integrator langevin|verlet   Langevin middle (default) or velocity Verlet (NVE)\n"
            "  --temperature K        bath and initial temperature (default 300)\n"
            "  --friction PER_PS      Langevin friction in 1/ps (default 1)\n"
            "  --pressure BAR         Monte Carlo barostat at BAR bar (default 0: constant\n"
            "                         volume; needs Langevin and a periodic box)\n"
            "  --barostat-every N     steps between volume moves (default 25)\n"
            "  --barostat iso|aniso|membrane  all edges by one factor (default), one edge\n"
            "                         at a time, or x and y together / z alone\n"
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
            "  --traj-every N         trajectory frame every N steps (default: --report-every;\n"
            "                         0 no trajectory)\n"
            "  --traj FILE            the trajectory (default DIR/traj.dcd): AMBER NetCDF when\n"
            "                         FILE ends .nc (or .ncdf), DCD otherwise\n"
            "  --restart-out FILE     write the state (positions, velocities, box) at every\n"
            "                         checkpoint and at the end: AMBER NetCDF restart for\n"
            "                         .ncrst (doubles), ASCII rst7 otherwise; start a new run\n"
            "                         from it with --coords FILE"
            "  --out DIR              output directory (default vkmd_run; created)\n"
            "  --checkpoint-every N   write DIR/checkpoint.chk every N steps, a multiple of\n"
            "                         --report-every (default: the multiple nearest above\n"
            "                         10000; 0: only at the end and on SIGINT/SIGTERM)\n"
            "  --restart FILE         continue the run that wrote checkpoint FILE: give the\n"
            "                         same options (--steps may grow); DIR's energy.csv and\n"
            "                         traj.dcd are cut back to the checkpoint and continued\n"
            "  --cutoff A             non-bonded cutoff in A (default 9)\n" ARGS_RESTRAINT_USAGE
                PRECISION_OPTIONS_USAGE
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

typedef struct run_cli {
    vkmd_run_desc d;
    precision_options precision;
    window_options win;
    const char *device;
    int json;
    const vkmd_run_info *info; /* while running */
    run_console console;
    vkmd_viewer *view;
    vkmd_viewer_hud hud;
} run_cli;

static vkmd_result parse(int argc, char **argv, run_cli *q)
{
    vkmd_run_desc *d = &q->d;
    vkmd_result r = VKMD_OK;
    int seed = 1, com = 100, integrator = 0, constraints = 0, flexible = 0, baro_mode = 0;
    const args_option opts[] = {
        ARG_DOUBLE("--dt", &d->md.dt_fs, 1e-3, 10),
        ARG_DOUBLE("--temperature", &d->md.temperature_k, 1e-3, 1e4),
        ARG_DOUBLE("--friction", &d->md.friction_per_ps, 1e-6, 1e3),
        ARG_DOUBLE("--constraint-tol", &d->md.constraint_tol, 1e-10, 0.01),
        ARG_DOUBLE("--hmr", &d->hmr_mass_amu, 1.0, 10.0),
        ARG_DOUBLE("--min-tol", &d->min.force_tol, 1e-6, 1e4),
        ARG_DOUBLE("--cutoff", &d->ff.cutoff_a, 1e-3, 1e4),
        ARG_DOUBLE("--ewald-tolerance", &d->ff.ewald_tolerance, 1e-12, 0.49),
        ARG_DOUBLE("--pressure", &d->md.pressure_bar, 0, 1e5),
        ARG_INT("--barostat-every", &d->md.barostat_every, 1, 1000000),
        ARG_CHOICE("--barostat", &baro_mode, "iso|aniso|membrane"),
        /* 0 given: -1, the desc's "none" (its 0 is the default) */
        ARG_WHOLE("--steps", &d->steps, -1), ARG_WHOLE("--report-every", &d->report_every, -1),
        ARG_WHOLE("--equilibrate", &d->equilibrate, 0),
        ARG_WHOLE("--traj-every", &d->traj_every, -1),
        ARG_WHOLE("--checkpoint-every", &d->checkpoint_every, -1),
        ARG_INT("--min-iterations", &d->min.max_iterations, 1, 10000000),
        ARG_INT("--seed", &seed, 0, 2147483647), ARG_INT("--com-every", &com, 0, 2147483647),
        ARG_CHOICE("--integrator", &integrator, "langevin|verlet"),
        ARG_CHOICE("--constraints", &constraints, "hbonds|none"),
        ARG_CHOICE("--rigid-water", &flexible, "yes|no"), ARG_STRING("--coords", &d->coords),
        ARG_STRING("--out", &d->out_dir), ARG_STRING("--device", &q->device),
        ARG_STRING("--traj", &d->traj_path), ARG_STRING("--restart-out", &d->restart_out),
        ARG_STRING("--restart", &d->restart), ARG_FLAG("--minimize", &d->minimize),
        ARG_FLAG("--json", &q->json), ARGS_RESTRAINT_OPTIONS(d->restraints)};
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i];
        int handled = 0;
        r = precision_options_parse(&q->precision, argc, argv, &i, &handled);
        if (handled || r != VKMD_OK || args_table(argc, argv, &i, opts, ARRAY_LEN(opts), &r) ||
            window_options_parse(argc, argv, &i, &q->win, &r))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (a[0] == '-' && a[1]) {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown option '%s' (see --help)", a);
        } else if (!d->system) {
            d->system = a;
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unexpected argument '%s'", a);
        }
    }
    if (r == VKMD_OK && !d->system)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no SYSTEM given (see vkmd run --help)");
    d->md.integrator = integrator ? VKMD_INTEGRATOR_VERLET : VKMD_INTEGRATOR_LANGEVIN;
    d->md.constraints = constraints ? VKMD_CONSTRAINTS_NONE : VKMD_CONSTRAINTS_HBONDS;
    d->md.flexible_water = flexible;
    d->md.barostat = (vkmd_barostat_mode)baro_mode;
    d->md.seed = (uint64_t)seed;
    d->md.com_every = com > 0 ? com : -1;
    d->precision = precision_options_request(&q->precision);
    return r;
}

/* ---- the command's reporter: progress line, viewer, signals ------------- */

static void cli_note(void *user, const char *text)
{
    run_console_note(&((run_cli *)user)->console, text);
}

static vkmd_result cli_begin(void *user, const vkmd_run_info *info)
{
    run_cli *q = user;
    q->info = info;
    run_console_begin(&q->console, info);
    if (!q->view)
        return VKMD_OK;
    const vkmd_forcefield *ff = vkmd_md_forcefield(info->md);
    const vkmd_render_sources src = {.positions = vkmd_forcefield_positions(ff),
                                     .velocities = vkmd_md_velocities_buffer(info->md),
                                     .forces = &vkmd_forcefield_accum(ff)->forces};
    q->hud = (vkmd_viewer_hud){.energies = 1, .bath_k = info->desc->md.temperature_k};
    return vkmd_viewer_attach(q->view, info->ctx, info->system, &src);
}

static vkmd_result cli_report(void *user, const vkmd_run_sample *s)
{
    run_cli *q = user;
    q->hud.temperature_k = s->report->temperature_k;
    q->hud.potential_kcal_mol = s->report->potential.total;
    q->hud.total_kcal_mol = s->report->total;
    if (s->box && s->box->periodic)
        for (int k = 0; k < 3; ++k)
            q->hud.box[k] = s->box->len[k]; /* the current box (a barostat moves it) */
    if (!s->start)
        q->hud.ns_per_day = s->ns_per_day;
    run_console_report(&q->console, s);
    return VKMD_OK;
}

/* A frame of the window between pieces of steps; the HUD holds the last report. */
static vkmd_result cli_idle(void *user, int64_t step, int64_t *max_steps, int *end_run)
{
    run_cli *q = user;
    if (!q->view)
        return VKMD_OK;
    vkmd_viewer_input in;
    q->hud.step = step;
    q->hud.time_ps = (double)step * q->info->desc->md.dt_fs * 1e-3;
    VKMD_TRY_RETURN(vkmd_viewer_frame(q->view, q->info->ctx, &q->hud, &in));
    const int64_t every = q->info->desc->report_every;
    if (in.quit && step % every != 0)
        fprintf(stderr,
                "vkmd run: window closed at step %lld; running on to the next report step, %lld\n",
                (long long)step, (long long)((step / every + 1) * every));
    *end_run = in.quit;
    if (in.steps < *max_steps)
        *max_steps = in.steps;
    return VKMD_OK;
}

int cmd_run(int argc, char **argv)
{
    run_cli q = {0};
    q.precision = (precision_options)PRECISION_OPTIONS_INIT;
    vkmd_run_desc checked;
    vkmd_result res = parse(argc, argv, &q);
    if (res == VKMD_OK && (res = window_options_check(&q.win)) == VKMD_OK)
        res = vkmd_run_desc_resolve(&q.d, &checked);
    if (res != VKMD_OK) {
        tool_error("run", res);
        return 2;
    }
    vkmd_run *run = NULL;
    if ((res = vkmd_run_create(&q.d, &run)) != VKMD_OK) {
        tool_error("run", res);
        return 1;
    }
    int exit_code = 1;
    vkmd_vk_context *ctx = NULL;
    vkmd_run_summary s = {0};
    const vkmd_run_desc *d = vkmd_run_desc_get(run);
    vkmd_vk_context_desc cdesc = {.device = q.device && strcmp(q.device, "gpu") ? q.device : NULL};
    const vkmd_viewer_desc vd = {.title = d->system, .screenshot_dir = d->out_dir};
    VKMD_TRY(window_options_open("run", &q.win, vd, VKMD_VIEW_COLOR_ELEMENT, &cdesc, &q.view));
    VKMD_TRY(vkmd_vk_context_create(&cdesc, &ctx));
    q.console.command = "run";
    run_console_catch_signals();
    const vkmd_reporter cli = {.user = &q,
                               .begin = cli_begin,
                               .report = cli_report,
                               .idle = cli_idle,
                               .stop_requested = run_console_stop_requested,
                               .note = cli_note};
    res = vkmd_run_execute(run, ctx, &cli, 1, &s);
    cli_note(&q, NULL); /* ends the progress line */
    if (res != VKMD_OK) {
        exit_code = s.blown_up ? RUN_EXIT_BLOWN_UP : 1;
        goto cleanup;
    }
    if (s.ended != VKMD_RUN_COMPLETE)
        fprintf(stderr,
                "vkmd run: %s at step %lld; checkpoint %s is at step %lld: continue with the same "
                "options and --restart %s\n",
                s.ended == VKMD_RUN_ENDED         ? "the window closed"
                : run_console_signal() == SIGTERM ? "stopped by SIGTERM"
                                                  : "stopped by SIGINT",
                (long long)s.last_step, s.checkpoint_path, (long long)s.last_checkpoint_step,
                s.checkpoint_path);
    if (s.ended == VKMD_RUN_INTERRUPTED) {
        exit_code = RUN_EXIT_INTERRUPTED;
        goto cleanup;
    }
    if (q.view)
        fprintf(stderr, "vkmd run: %lld frames drawn\n", (long long)vkmd_viewer_frames(q.view));
    vkmd_viewer_close(q.view, ctx); /* first, so its teardown is validated too */
    q.view = NULL;
    VKMD_TRY(vkmd_vk_context_check_validation(ctx));
    if (q.json)
        vkmd_run_summary_write_json(stdout, run, &s);
    else
        vkmd_run_summary_write_text(stdout, run, &s);
    exit_code = 0;
cleanup:
    if (exit_code != 0 && exit_code != RUN_EXIT_INTERRUPTED) {
        tool_error("run", res);
        const int device = res == VKMD_ERROR_DEVICE_LOST || res == VKMD_ERROR_DEVICE_MEMORY;
        if (device)
            fprintf(stderr, "vkmd run: the GPU %s. ",
                    res == VKMD_ERROR_DEVICE_LOST ? "was lost (driver reset, hang or removal)"
                                                  : "ran out of memory (a smaller system, or "
                                                    "another device with --device)");
        const char *ck_path = NULL;
        const int64_t last_ck = vkmd_run_last_checkpoint(run, &ck_path);
        if (last_ck >= 0)
            fprintf(stderr,
                    "vkmd run: the last good checkpoint, %s, is at step %lld; outputs hold every "
                    "good report and frame until the stop; continue with --restart %s\n",
                    ck_path, (long long)last_ck, ck_path);
        else if (device || exit_code == RUN_EXIT_BLOWN_UP)
            fprintf(stderr, "vkmd run: no checkpoint was written before the stop\n");
    }
    vkmd_viewer_close(q.view, ctx);
    vkmd_run_destroy(run);
    vkmd_vk_context_destroy(ctx);
    return exit_code;
}
