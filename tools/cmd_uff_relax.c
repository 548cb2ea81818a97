/* vkmd uff relax | md.
 *
 * relax: FIRE minimisation of many replicas of one molecule, all at
 * once on a Vulkan device (sim/uff_fire.h) or one after another on the CPU
 * double reference (ref/ref_uff_fire.h). Starts are the conformations of
 * --confs, or --replicas copies of MOL's first conformer displaced by a
 * seeded random amount (--perturb, --seed: vkmd_uff_perturb, the same
 * numbers on every machine). Writes the relaxed structures as a
 * multi-record SDF (V2000, 4 decimals: re-reading it moves a relaxed
 * energy by up to ~3e-5 kcal/mol) with each replica's energy, steps and convergence as
 * data items, and reports per replica initial and final energy, steps,
 * final max |F| and whether it converged.
 *
 * md: Langevin dynamics of --replicas copies of MOL (sim/uff_md.h), each
 * replica's mean temperature; the same seed gives the same digits. */
#include "cmd_uff_relax.h"
#include "args.h"
#include "commands.h"
#include "io/uff_conformations.h"
#include "io/uff_load.h"
#include "io/uff_replicas_json.h"
#include "io/uff_replicas_sdf.h"
#include "ref/ref_uff.h"
#include "ref/ref_uff_fire.h"
#include "sim/uff_fire.h"
#include "sim/uff_relax.h"
#include "sim/uff_md.h"
#include "sim/uff_md_replicas.h"
#include "system/molecule_system.h"
#include "system/uff_molecule.h"
#include "system/uff_terms.h"
#include "system/uff_typing.h"
#include "uff_eval.h"
#include "vk/check.h"
#include "window_options.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cmd_uff_relax_usage(FILE *out)
{
    fprintf(
        out,
        "       vkmd uff relax MOL [--confs FILE | --replicas R --perturb A --seed S] --out FILE\n"
        "  FIRE minimisation of every replica at once (Bitzek et al. 2006; N_min 5,\n"
        "  f_inc 1.1, f_dec 0.5, alpha 0.1, f_alpha 0.99, unit masses, dt 0.01..0.05)\n"
        "  --confs FILE         starts: every record/frame of FILE (MOL's atoms in order)\n"
        "  --replicas R         starts: R copies of MOL's first conformer (default 1) ...\n"
        "  --perturb A          ... each coordinate displaced uniformly in [-A, A] A (0)\n"
        "  --seed S             ... by the numbers of seed S (default 1; replica r uses its\n"
        "                       own stream, so the starts do not depend on R)\n"
        "  --out FILE           relaxed structures, multi-record SDF (required)\n"
        "  --device auto|cpu|N|NAME  auto (default): the best Vulkan device, else the CPU\n"
        "  --ftol F             converged when max |F| < F kcal/mol/A (default 1e-3)\n"
        "  --rms                ... RMS |F| instead of max |F|\n"
        "  --max-steps N        FIRE steps per replica at most (default 20000)\n"
        "  --json               one JSON object on stdout\n"
        "       vkmd uff md MOL --replicas R [options]\n"
        "  BAOAB Langevin dynamics of R copies of MOL at once, each with its own noise;\n"
        "  drawn side by side in a window (coloured by replica) when there is a display\n"
        "  --replicas R         copies of MOL's first conformer (default 1)\n"
        "  --steps N            steps (default 1000); --dt FS (0.5), --temperature K (300),\n"
        "                       --friction PER_PS (5), --seed S (1)\n"
        "  --out FILE           final structures, multi-record SDF\n"
        "  --device auto|N|NAME Vulkan device (default: the best one)\n"
        "  --no-window          headless even with a display\n"
        "  --steps-per-frame N  with a window: steps between frames (default 10)\n"
        "  --color MODE         replica (default), element, velocity or force\n"
        "  --screenshot FILE    with a window: write FILE (PNG) after --frames frames\n"
        "  --frames N           with a window: stop after N frames\n"
        "  --json               one JSON object on stdout\n");
}

typedef struct relax_request {
    const char *molecule, *confs, *out, *device;
    int replicas, json, rms, max_steps, seed;
    double perturb, ftol;
} relax_request;

/* The options of `opts` (and with win, the window options) and MOL of
 * vkmd uff relax | md, or a usage error; --help prints the usage and sets
 * *help. */
static vkmd_result uff_args(int argc, char **argv, const args_option *opts, size_t count,
                            const char *cmd, window_options *win, const char **molecule, int *help)
{
    vkmd_result r = VKMD_OK;
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i];
        if (args_table(argc, argv, &i, opts, count, &r) ||
            (win && window_options_parse(argc, argv, &i, win, &r)))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            cmd_uff_relax_usage(stdout);
            *help = 1;
            return VKMD_OK;
        } else if (a[0] == '-' && a[1]) {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                          "unknown option '%s' for vkmd uff %s (see vkmd uff --help)", a, cmd);
        } else if (!*molecule) {
            *molecule = a;
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unexpected argument '%s'", a);
        }
    }
    if (r == VKMD_OK && !*molecule)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no MOL given (see vkmd uff --help)");
    return r;
}

/* The exit code of a parse: 2 after a usage error, else -1 (go on). */
static int args_exit(vkmd_result r, const char *cmd)
{
    if (r == VKMD_OK)
        return -1;
    tool_error(cmd, r);
    return 2;
}

static int relax_args(int argc, char **argv, relax_request *q)
{
    int help = 0;
    const args_option opts[] = {ARG_STRING("--confs", &q->confs),
                                ARG_STRING("--out", &q->out),
                                ARG_STRING("--device", &q->device),
                                ARG_FLAG("--json", &q->json),
                                ARG_FLAG("--rms", &q->rms),
                                ARG_INT("--replicas", &q->replicas, 1, 1 << 24),
                                ARG_INT("--max-steps", &q->max_steps, 0, 1 << 30),
                                ARG_INT("--seed", &q->seed, 0, 2147483647),
                                ARG_DOUBLE("--perturb", &q->perturb, 0, 10),
                                ARG_DOUBLE("--ftol", &q->ftol, 1e-8, 1e6)};
    vkmd_result r = uff_args(argc, argv, opts, ARRAY_LEN(opts), "relax", NULL, &q->molecule, &help);
    if (help)
        return 0;
    if (r == VKMD_OK && !q->out)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                      "no --out FILE given: where the relaxed structures go (SDF)");
    /* --replicas 0 and --perturb -1 in *q mean "not given" */
    if (r == VKMD_OK && q->confs && (q->replicas || q->perturb >= 0))
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                      "--confs gives the starts; --replicas/--perturb make them from MOL instead "
                      "(not both)");
    q->replicas = q->replicas ? q->replicas : 1;
    q->perturb = q->perturb >= 0 ? q->perturb : 0;
    return args_exit(r, "uff relax");
}

/* Loads MOL, which must hold one molecule, and its UFF terms. */
static vkmd_result load_one(const char *path, const char *why, vkmd_uff_molecule **recs,
                            int32_t *count, vkmd_uff_typing *ty, vkmd_uff_terms *terms)
{
    VKMD_TRY_RETURN(vkmd_uff_molecule_load(path, recs, count));
    if (*count != 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s has %d records; %s", path, *count, why);
    return vkmd_uff_setup(&(*recs)[0], NULL, ty, terms);
}

int cmd_uff_relax(int argc, char **argv)
{
    relax_request q = {.device = "auto", .seed = 1, .perturb = -1};
    int early = relax_args(argc, argv, &q);
    if (early >= 0)
        return early;
    vkmd_result res = VKMD_OK;
    vkmd_uff_molecule *recs = NULL;
    int32_t count = 0, n = 0;
    vkmd_uff_typing ty = {0};
    vkmd_uff_terms terms = {0};
    uff_eval ev = {0};
    double *start = NULL, *final = NULL;
    vkmd_uff_fire_result *out = NULL;
    int exit_code = 1;
    const vkmd_uff_fire_params params = {.ftol = q.ftol,
                                         .max_steps = q.max_steps,
                                         .criterion = q.rms ? VKMD_UFF_FIRE_RMS_FORCE
                                                            : VKMD_UFF_FIRE_MAX_FORCE};
    const vkmd_uff_fire_params used = vkmd_uff_fire_params_resolve(&params);

    VKMD_TRY(load_one(q.molecule,
                      "relax takes one molecule (its starts come from --confs or --replicas)",
                      &recs, &count, &ty, &terms));
    VKMD_TRY(vkmd_uff_starts_make(&recs[0], q.molecule, q.confs, q.replicas, q.perturb,
                                  (uint64_t)q.seed, &start, &n));
    const int32_t na = recs[0].atom_count;
    final = malloc(3 * sizeof *final * (size_t)na * (size_t)n);
    out = calloc((size_t)n, sizeof *out);
    if (!final || !out) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "results of %d replicas", n);
        goto cleanup;
    }
    VKMD_TRY(uff_eval_open(q.device, &ev));
    int32_t checks = 0;
    if (ev.ctx) {
        VKMD_TRY(vkmd_uff_relax_replicas(ev.ctx, &terms, n, &params, start, final, out, &checks));
    } else {
        memcpy(final, start, 3 * sizeof *final * (size_t)na * (size_t)n);
        for (int32_t r = 0; r < n; ++r)
            VKMD_TRY(vkmd_ref_uff_fire(&terms, &params, final + 3 * (size_t)r * na, &out[r]));
    }
    VKMD_TRY(vkmd_uff_replicas_write_sdf(q.out, &recs[0], n, final, out, ""));
    int32_t converged = 0;
    for (int32_t r = 0; r < n; ++r)
        converged += out[r].converged;
    const char *crit = q.rms ? "rms" : "max";
    const vkmd_uff_relax_report rep = {.molecule = recs[0].name,
                                       .device = ev.device,
                                       .out = q.out,
                                       .atom_count = na,
                                       .replica_count = n,
                                       .host_checks = checks,
                                       .params = used,
                                       .results = out};
    if (q.json) {
        vkmd_uff_relax_write_json(stdout, &rep);
    } else {
        printf("vkmd uff relax: %s \"%s\" (%d atoms), %d replica(s) from %s\n", q.molecule,
               recs[0].name, na, n, q.confs ? q.confs : "MOL");
        printf("device %s; FIRE until %s |F| < %g kcal/mol/A, at most %d steps", ev.device, crit,
               used.ftol, used.max_steps);
        if (ev.ctx)
            printf("; %d host check(s)", checks);
        printf("\n\n  %7s %16s %16s %8s %10s %9s\n", "replica", "E_initial", "E_final", "steps",
               "max|F|", "converged");
        for (int32_t r = 0; r < n; ++r)
            printf("  %7d %16.6f %16.6f %8d %10.2e %9s\n", r + 1, out[r].energy_initial,
                   out[r].energy_final, out[r].steps, out[r].fmax, out[r].converged ? "yes" : "no");
        printf("\n%d of %d converged; relaxed structures in %s (energies in kcal/mol)\n", converged,
               n, q.out);
    }
    VKMD_TRY(uff_eval_close(&ev));
    exit_code = 0;
cleanup:
    if (exit_code != 0) {
        fflush(stdout);
        tool_error("uff relax", res);
    }
    uff_eval_close(&ev);
    free(start);
    free(final);
    free(out);
    vkmd_uff_terms_free(&terms);
    vkmd_uff_typing_free(&ty);
    vkmd_uff_molecule_array_free(recs, count);
    return exit_code;
}

typedef struct md_request {
    const char *molecule, *out, *device;
    int replicas, steps, json, seed;
    window_options win;
    double dt, temperature, friction;
} md_request;

static int md_args(int argc, char **argv, md_request *q)
{
    int help = 0;
    const args_option opts[] = {ARG_STRING("--out", &q->out),
                                ARG_STRING("--device", &q->device),
                                ARG_FLAG("--json", &q->json),
                                ARG_INT("--replicas", &q->replicas, 1, 1 << 24),
                                ARG_INT("--steps", &q->steps, 0, 1 << 30),
                                ARG_INT("--seed", &q->seed, 0, 2147483647),
                                ARG_DOUBLE("--dt", &q->dt, 1e-3, 10),
                                ARG_DOUBLE("--temperature", &q->temperature, 1e-3, 1e5),
                                ARG_DOUBLE("--friction", &q->friction, 1e-6, 1e4)};
    vkmd_result r = uff_args(argc, argv, opts, ARRAY_LEN(opts), "md", &q->win, &q->molecule, &help);
    if (help)
        return 0;
    if (r == VKMD_OK)
        r = window_options_check(&q->win);
    if (r == VKMD_OK && !strcmp(q->device, "cpu"))
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                      "vkmd uff md runs on a Vulkan device (--device N or a name), not cpu");
    return args_exit(r, "uff md");
}

/* With a window: a frame between chunks of steps, as many as it asks for. */
typedef struct md_window {
    vkmd_viewer *view;
    vkmd_vk_context *ctx;
    double dt_fs;
    vkmd_viewer_hud hud;
} md_window;

static vkmd_result md_frame(void *user, int32_t done, double mean_temperature_k, int32_t *out_steps,
                            int *out_stop)
{
    md_window *w = user;
    vkmd_viewer_input in;
    w->hud.step = done;
    w->hud.time_ps = done * w->dt_fs * 1e-3;
    w->hud.temperature_k = mean_temperature_k; /* the replicas' mean over the last steps */
    VKMD_TRY_RETURN(vkmd_viewer_frame(w->view, w->ctx, &w->hud, &in));
    *out_steps = in.steps;
    *out_stop = in.quit;
    return VKMD_OK;
}

int cmd_uff_md(int argc, char **argv)
{
    md_request q = {.device = "auto",
                    .replicas = 1,
                    .steps = 1000,
                    .dt = 0.5,
                    .temperature = 300,
                    .friction = 5,
                    .seed = 1};
    int early = md_args(argc, argv, &q);
    if (early >= 0)
        return early;
    vkmd_result res = VKMD_OK;
    vkmd_uff_molecule *recs = NULL;
    int32_t count = 0;
    vkmd_uff_typing ty = {0};
    vkmd_uff_terms terms = {0};
    vkmd_uff_md *md = NULL;
    uff_eval ev = {0};
    double *xyz = NULL, *tmean = NULL;
    vkmd_uff_energy *e = NULL;
    vkmd_uff_fire_result *info = NULL; /* the SDF's data items: energies only */
    int exit_code = 1;
    vkmd_viewer *view = NULL;
    vkmd_system vsys = {0};
    VKMD_TRY(load_one(q.molecule, "md takes one molecule", &recs, &count, &ty, &terms));
    const int32_t na = recs[0].atom_count, nr = q.replicas;
    xyz = malloc(3 * sizeof *xyz * (size_t)na * (size_t)nr);
    tmean = calloc((size_t)nr, sizeof *tmean);
    e = calloc((size_t)nr, sizeof *e);
    info = calloc((size_t)nr, sizeof *info);
    if (!xyz || !tmean || !e || !info) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d replicas", nr);
        goto cleanup;
    }
    vkmd_vk_context_desc cd = {0};
    const vkmd_viewer_desc vd = {.title = q.molecule};
    VKMD_TRY(window_options_open("uff md", &q.win, vd, VKMD_VIEW_COLOR_REPLICA, &cd, &view));
    VKMD_TRY(uff_eval_open_desc(q.device, &cd, &ev));
    if (!ev.ctx) {
        res = vkmd_fail(VKMD_ERROR_NO_DEVICE, "vkmd uff md needs a Vulkan device; %s", ev.device);
        goto cleanup;
    }
    const vkmd_uff_md_params params = {.dt_fs = q.dt,
                                       .temperature_k = q.temperature,
                                       .friction_per_ps = q.friction,
                                       .seed = (uint64_t)q.seed};
    VKMD_TRY(vkmd_uff_md_create_replicas(ev.ctx, &recs[0], &terms, nr, &params, &md));
    char note[160];
    snprintf(note, sizeof note, "%d REPLICAS OF %s (%d ATOMS EACH)", nr, recs[0].name, na);
    md_window w = {view, ev.ctx, q.dt, {.bath_k = q.temperature, .note = note}};
    if (view) {
        VKMD_TRY(vkmd_system_from_uff_molecule(&recs[0], nr, NULL, &vsys));
        const vkmd_render_sources src = {.positions = vkmd_uff_md_positions(md),
                                         .velocities = vkmd_uff_md_velocities(md),
                                         .forces = vkmd_uff_md_forces(md),
                                         .atoms_per_replica = na,
                                         .velocity_w_is_mass = 1,
                                         /* its extent plus room to move */
                                         .replica_spacing_a =
                                             vkmd_uff_molecule_extent(&recs[0]) + 4.0};
        VKMD_TRY(vkmd_viewer_attach(view, ev.ctx, &vsys, &src));
    }
    int32_t done = 0;
    VKMD_TRY(
        vkmd_uff_md_run_chunks(ev.ctx, md, nr, q.steps, view ? md_frame : NULL, &w, tmean, &done));
    if (done < q.steps)
        fprintf(stderr, "vkmd uff md: the window closed after %d of %d steps\n", done, q.steps);
    q.steps = done;
    VKMD_TRY(vkmd_uff_md_read(ev.ctx, md, xyz, NULL, e));
    if (q.out) {
        char suffix[64];
        snprintf(suffix, sizeof suffix, " after %d steps", q.steps);
        for (int32_t r = 0; r < nr; ++r)
            info[r] = (vkmd_uff_fire_result){.energy_final = e[r].total};
        VKMD_TRY(vkmd_uff_replicas_write_sdf(q.out, &recs[0], nr, xyz, info, suffix));
    }
    double all = 0;
    for (int32_t r = 0; r < nr; ++r)
        all += tmean[r] / nr;
    const vkmd_uff_md_report rep = {.molecule = recs[0].name,
                                    .device = ev.device,
                                    .atom_count = na,
                                    .replica_count = nr,
                                    .steps = q.steps,
                                    .dt_fs = q.dt,
                                    .temperature_k = q.temperature,
                                    .friction_per_ps = q.friction,
                                    .seed = q.seed,
                                    .mean_temperature_k = tmean,
                                    .final_energy = e};
    if (q.json) {
        vkmd_uff_md_write_json(stdout, &rep);
    } else {
        printf("vkmd uff md: %s \"%s\" (%d atoms), %d replica(s), %d steps of %g fs at %g K, "
               "friction %g/ps, seed %d\ndevice %s; BAOAB Langevin, no constraints\n\n",
               q.molecule, recs[0].name, na, nr, q.steps, q.dt, q.temperature, q.friction, q.seed,
               ev.device);
        printf("  %7s %12s %18s\n", "replica", "mean T (K)", "final E (kcal/mol)");
        for (int32_t r = 0; r < nr; ++r)
            printf("  %7d %12.2f %18.6f\n", r + 1, tmean[r], e[r].total);
        printf("\nmean temperature over replicas %.2f K\n", all);
    }
    vkmd_viewer_close(view, ev.ctx); /* before the buffers it draws from */
    view = NULL;
    vkmd_uff_md_destroy(ev.ctx, md); /* before the context closes */
    md = NULL;
    VKMD_TRY(uff_eval_close(&ev));
    exit_code = 0;
cleanup:
    if (exit_code != 0) {
        fflush(stdout);
        tool_error("uff md", res);
    }
    vkmd_viewer_close(view, ev.ctx);
    vkmd_uff_md_destroy(ev.ctx, md);
    uff_eval_close(&ev);
    free(xyz);
    free(tmean);
    free(e);
    free(info);
    vkmd_system_destroy(&vsys);
    vkmd_uff_terms_free(&terms);
    vkmd_uff_typing_free(&ty);
    vkmd_uff_molecule_array_free(recs, count);
    return exit_code;
}
