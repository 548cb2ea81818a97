/* vkmd run: molecular dynamics of a system on a Vulkan device through the
 * engine's run controller (engine/run/run.h: the loop, checkpoints,
 * restarts, blow-up replay, energy.csv, traj.dcd, final.pdb). This command
 * parses the options, draws the progress line, hosts the viewer window
 * (viewer/viewer.h) between pieces of steps, stops within a second on
 * SIGINT/SIGTERM (core/stop.h) and prints the summary (text, or JSON with --json). */
#include "core/options.h"
#include "commands.h"
#include "run/run_options.h"
#include "run/progress_line.h"
#include "core/stop.h"
#include "run/run.h"
#include "run/run_summary.h"
#include "vk/context.h"
#include "window_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUN_EXIT_BLOWN_UP 3

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vkmd run SYSTEM [options]\n"
            "  SYSTEM                 AMBER prmtop, or water:N (N TIP3P waters)\n"
            "  --restart FILE         continue the run that wrote checkpoint FILE: give the\n"
            "                         same options (--steps may grow); DIR's energy.csv and\n"
            "                         traj.dcd are cut back to the checkpoint and continued\n"
            "  --no-window            headless even when a display is available\n"
            "  --steps-per-frame N    with a window: steps between frames (default 10; + and -\n"
            "                         keys change it)\n"
            "  --screenshot FILE      with a window: write FILE (PNG) after --frames frames\n"
            "  --color MODE           with a window: element (default), velocity (local\n"
            "                         temperature), force (|F|) or replica; c key cycles\n"
            "  --frames N             with a window: stop after N frames (the run ends at the\n"
            "                         next report step, with its checkpoint)\n"
            "MD options (the same in vkmd equilibrate and vkmd-mpi ensemble):\n");
    vkmd_run_options_usage(out, VKMD_RUN_OPTIONS_ALL);
}

typedef struct run_cli {
    vkmd_run_options o; /* o.run: the run's description */
    window_options win;
    const vkmd_run_info *info; /* while running */
    vkmd_progress_reporter console;
    vkmd_viewer *view;
    vkmd_viewer_hud hud;
} run_cli;

static vkmd_result parse(int argc, char **argv, run_cli *q)
{
    vkmd_run_desc *d = &q->o.run;
    vkmd_result r = VKMD_OK;
    const vkmd_option opts[] = {VKMD_OPT_STRING("--restart", &d->restart)};
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i];
        if (vkmd_run_options_parse(&q->o, VKMD_RUN_OPTIONS_ALL, "", argc, argv, &i, &r) ||
            vkmd_options_parse(argc, argv, &i, opts, VKMD_ARRAY_LEN(opts), &r) ||
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
    vkmd_run_options_finish(&q->o);
    return r;
}

/* ---- the command's reporter: progress line, viewer, signals ------------- */

static void cli_note(void *user, const char *text)
{
    vkmd_progress_reporter_note(&((run_cli *)user)->console, text);
}

static vkmd_result cli_begin(void *user, const vkmd_run_info *info)
{
    run_cli *q = user;
    q->info = info;
    vkmd_progress_reporter_begin(&q->console, info);
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
    return vkmd_progress_reporter_report(&q->console, s);
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
    vkmd_run_options_init(&q.o);
    vkmd_run_desc checked;
    vkmd_result res = parse(argc, argv, &q);
    if (res == VKMD_OK && (res = window_options_check(&q.win)) == VKMD_OK)
        res = vkmd_run_desc_resolve(&q.o.run, &checked);
    if (res != VKMD_OK) {
        tool_error("run", res);
        return 2;
    }
    vkmd_run *run = NULL;
    (void)vkmd_stop_catch_signals(); /* from here a signal stops the run where it is */
    if ((res = vkmd_run_create(&q.o.run, &run)) != VKMD_OK) {
        tool_error("run", res);
        return 1;
    }
    int exit_code = 1;
    vkmd_vk_context *ctx = NULL;
    vkmd_run_summary s = {0};
    const vkmd_run_desc *d = vkmd_run_desc_get(run);
    vkmd_vk_context_desc cdesc = {.device =
                                      q.o.device && strcmp(q.o.device, "gpu") ? q.o.device : NULL};
    const vkmd_viewer_desc vd = {.title = d->system, .screenshot_dir = d->out_dir};
    VKMD_TRY(window_options_open("run", &q.win, vd, VKMD_VIEW_COLOR_ELEMENT, &cdesc, &q.view));
    VKMD_TRY(vkmd_vk_context_create(&cdesc, &ctx));
    vkmd_progress_reporter_make(&q.console, "vkmd run");
    const vkmd_reporter cli = {
        .user = &q, .begin = cli_begin, .report = cli_report, .idle = cli_idle, .note = cli_note};
    res = vkmd_run_execute(run, ctx, &cli, 1, &s);
    cli_note(&q, NULL); /* ends the progress line */
    if (res != VKMD_OK) {
        exit_code = res == VKMD_ERROR_STOPPED ? vkmd_stop_exit_code(vkmd_stop_requested())
                    : s.blown_up              ? RUN_EXIT_BLOWN_UP
                                              : 1;
        goto cleanup;
    }
    if (s.ended != VKMD_RUN_COMPLETE) {
        vkmd_run_summary_write_stop(stderr, "vkmd run", run, &s);
        exit_code = s.ended == VKMD_RUN_INTERRUPTED ? vkmd_stop_exit_code(s.stop_why) : 0;
        if (exit_code)
            goto cleanup;
    }
    if (q.view)
        fprintf(stderr, "vkmd run: %lld frames drawn\n", (long long)vkmd_viewer_frames(q.view));
    vkmd_viewer_close(q.view, ctx); /* first, so its teardown is validated too */
    q.view = NULL;
    VKMD_TRY(vkmd_vk_context_check_validation(ctx));
    if (q.o.json)
        vkmd_run_summary_write_json(stdout, run, &s);
    else
        vkmd_run_summary_write_text(stdout, run, &s);
    exit_code = 0;
cleanup:
    if (exit_code != 0 && s.ended != VKMD_RUN_INTERRUPTED) {
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
