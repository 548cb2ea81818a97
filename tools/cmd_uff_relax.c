/* vkmd uff relax | md.
 *
 * relax: minimisation of many replicas at once on a Vulkan device
 * (sim/uff_relax.h: RDKit's BFGS / L-BFGS by default, or FIRE) or one after
 * another on the CPU double references (ref/ref_uff_lbfgs.h,
 * ref/ref_uff_fire.h). Starts: every record of MOL when it holds several
 * (the conformer workflow: e.g. RDKit ETKDG output; records of different
 * molecules go in one mixed batch; the output is sorted by energy within
 * each molecule, and --prune-rms drops near duplicates), else the
 * conformations of --confs, or --replicas copies of MOL's first conformer
 * displaced by a seeded random amount (--perturb, --seed:
 * vkmd_uff_perturb, the same numbers on every machine). Writes the relaxed
 * structures as a multi-record SDF (V2000, 4 decimals: re-reading it moves
 * a relaxed energy by up to ~3e-5 kcal/mol) with each record's energies,
 * iterations, evaluations and convergence as data items (io/sdf_relax.h),
 * and reports the same per replica.
 *
 * md: Langevin dynamics of --replicas copies of MOL (sim/uff_md.h), each
 * replica's mean temperature; the same seed gives the same digits. */
#include "cmd_uff_relax.h"
#include "core/options.h"
#include "core/stop.h"
#include "eval/uff_eval.h"
#include "io/outdir.h"
#include "commands.h"
#include "io/uff_conformations.h"
#include "io/uff_load.h"
#include "io/sdf_relax.h"
#include "io/uff_replicas_json.h"
#include "io/uff_replicas_sdf.h"
#include "sim/uff_fire.h"
#include "sim/uff_relax.h"
#include "sim/uff_md.h"
#include "sim/uff_md_replicas.h"
#include "system/molecule_system.h"
#include "system/uff_relax_set.h"
#include "system/uff_molecule.h"
#include "system/uff_terms.h"
#include "system/uff_typing.h"
#include "window_options.h"

#include <stdlib.h>
#include <string.h>

void cmd_uff_relax_usage(FILE *out)
{
    fprintf(
        out,
        "       vkmd uff relax MOL [--confs FILE | --replicas R --perturb A --seed S] --out FILE\n"
        "  minimisation of every replica at once; MOL with several records (conformers,\n"
        "  or different molecules): every record relaxed, written sorted by energy\n"
        "  --minimizer lbfgs|fire  lbfgs (default): RDKit's BFGS line search and tests\n"
        "                       (dense inverse Hessian, or L-BFGS with --memory M);\n"
        "                       fire: FIRE (Bitzek et al. 2006), unit masses\n"
        "  --confs FILE         starts: every record/frame of FILE (MOL's atoms in order)\n"
        "  --replicas R         starts: R copies of MOL's first conformer (default 1) ...\n"
        "  --perturb A          ... each coordinate displaced uniformly in [-A, A] A (0)\n"
        "  --seed S             ... by the numbers of seed S (default 1; replica r uses its\n"
        "                       own stream, so the starts do not depend on R)\n"
        "  --out FILE           relaxed structures, multi-record SDF (required; an existing\n"
        "                       FILE is refused unless --overwrite: moved aside to FILE.1)\n"
        "  --prune-rms A        drop a structure within A (heavy-atom RMSD after\n"
        "                       superposition) of a lower one of the same molecule\n"
        "  --device auto|cpu|N|NAME  auto (default): the best Vulkan device, else the CPU\n"
        "  --ftol F             lbfgs: RDKit's forceTol (its scaled gradient test, default\n"
        "                       1e-4); fire: max |F| < F kcal/mol/A (default 1e-3)\n"
        "  --energy-tol E       lbfgs: stop when |dE| <= E max(|E|, 1) (default off)\n"
        "  --max-iterations N   line searches (lbfgs, default 1000) or steps (fire, 20000)\n"
        "  --memory M           lbfgs: 0 dense BFGS (default), 1..16 L-BFGS pairs\n"
        "  --rms                fire: RMS |F| instead of max |F|\n"
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
    const char *molecule, *confs, *out, *device, *minimizer;
    int replicas, json, rms, max_steps, seed, memory, overwrite;
    int from_mol_options; /* --confs, --replicas or --perturb given */
    double perturb, ftol, energy_tol, prune_rms;
} relax_request;

/* The options of `opts` (and with win, the window options) and MOL of
 * vkmd uff relax | md, or a usage error; --help prints the usage and sets
 * *help. */
static vkmd_result uff_args(int argc, char **argv, const vkmd_option *opts, size_t count,
                            const char *cmd, window_options *win, const char **molecule, int *help)
{
    vkmd_result r = VKMD_OK;
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i];
        if (vkmd_options_parse(argc, argv, &i, opts, count, &r) ||
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
    const vkmd_option opts[] = {VKMD_OPT_STRING("--confs", &q->confs),
                                VKMD_OPT_STRING("--out", &q->out),
                                VKMD_OPT_STRING("--device", &q->device),
                                VKMD_OPT_STRING("--minimizer", &q->minimizer),
                                VKMD_OPT_FLAG("--json", &q->json),
                                VKMD_OPT_FLAG("--rms", &q->rms),
                                VKMD_OPT_FLAG("--overwrite", &q->overwrite),
                                VKMD_OPT_INT("--replicas", &q->replicas, 1, 1 << 24),
                                VKMD_OPT_INT("--max-steps", &q->max_steps, 0, 1 << 30),
                                VKMD_OPT_INT("--max-iterations", &q->max_steps, 0, 1 << 30),
                                VKMD_OPT_INT("--memory", &q->memory, 0, VKMD_UFF_LBFGS_MAX_MEMORY),
                                VKMD_OPT_INT("--seed", &q->seed, 0, 2147483647),
                                VKMD_OPT_DOUBLE("--perturb", &q->perturb, 0, 10),
                                VKMD_OPT_DOUBLE("--ftol", &q->ftol, 1e-8, 1e6),
                                VKMD_OPT_DOUBLE("--energy-tol", &q->energy_tol, 0, 1),
                                VKMD_OPT_DOUBLE("--prune-rms", &q->prune_rms, 0, 100)};
    vkmd_result r =
        uff_args(argc, argv, opts, VKMD_ARRAY_LEN(opts), "relax", NULL, &q->molecule, &help);
    if (help)
        return 0;
    if (r == VKMD_OK && !q->out)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                      "no --out FILE given: where the relaxed structures go (SDF)");
    if (r == VKMD_OK && strcmp(q->minimizer, "lbfgs") && strcmp(q->minimizer, "fire"))
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "--minimizer '%s': expected lbfgs or fire",
                      q->minimizer);
    if (r == VKMD_OK && q->rms && strcmp(q->minimizer, "fire"))
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "--rms is FIRE's criterion (--minimizer fire)");
    /* --replicas 0 and --perturb -1 in *q mean "not given" */
    if (r == VKMD_OK && q->confs && (q->replicas || q->perturb >= 0))
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                      "--confs gives the starts; --replicas/--perturb make them from MOL instead "
                      "(not both)");
    q->from_mol_options = q->confs || q->replicas || q->perturb >= 0;
    q->replicas = q->replicas ? q->replicas : 1;
    q->perturb = q->perturb >= 0 ? q->perturb : 0;
    return args_exit(r, "uff relax");
}

/* What relax minimises (system/uff_relax_set.h) and the records it came
 * from: several (multi) are each relaxed from their own coordinates, grouped
 * by molecule; one gives the starts of --confs or --replicas/--perturb. */
typedef struct relax_set {
    vkmd_uff_molecule *records;
    int32_t record_count;
    int multi;
    vkmd_uff_relax_set set;
} relax_set;

static void relax_set_free(relax_set *s)
{
    vkmd_uff_relax_set_free(&s->set);
    vkmd_uff_molecule_array_free(s->records, s->record_count);
}

static vkmd_result relax_set_make(const relax_request *q, relax_set *s)
{
    VKMD_TRY_RETURN(vkmd_uff_molecule_load(q->molecule, &s->records, &s->record_count));
    s->multi = s->record_count > 1;
    if (s->multi && q->from_mol_options)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s has %d records: each is relaxed from its own coordinates; "
                         "--confs/--replicas/--perturb take a one-record MOL",
                         q->molecule, s->record_count);
    double *starts = NULL;
    int32_t n = 0;
    if (!s->multi)
        VKMD_TRY_RETURN(vkmd_uff_starts_make(&s->records[0], q->molecule, q->confs, q->replicas,
                                             q->perturb, (uint64_t)q->seed, &starts, &n));
    const vkmd_uff_relax_set_desc d = {.same_molecules = 1, .starts = starts, .start_count = n};
    vkmd_result res = vkmd_uff_relax_set_build(s->records, s->record_count, &d, &s->set);
    free(starts);
    if (res != VKMD_OK && s->multi)
        res = vkmd_fail(res, "%s %s", q->molecule, vkmd_last_error());
    return res;
}

/* Replica r's molecule record. */
static const vkmd_uff_molecule *replica_record(const relax_set *s, int32_t r)
{
    return &s->records[s->set.replica_record[r]];
}

static void write_json(const relax_request *q, const relax_set *s, const char *device,
                       const char *crit, double ftol, int32_t max_its, int32_t checks,
                       const vkmd_uff_relax_result *out, const int32_t *order, int32_t kept,
                       const double *rel)
{
    int32_t converged = 0;
    for (int32_t r = 0; r < s->set.replica_count; ++r)
        converged += out[r].converged;
    printf("{\n  \"units\": {\"energy\": \"kcal/mol\", \"force\": \"kcal/mol/angstrom\", "
           "\"length\": \"angstrom\"},\n  \"vkmd_version\": \"%s\",\n  \"molecule\": \"%s\",\n"
           "  \"device\": \"%s\",\n  \"minimiser\": \"%s\",\n  \"criterion\": \"%s\",\n"
           "  \"ftol\": %g,\n  \"energy_tol\": %g,\n  \"memory\": %d,\n  \"max_iterations\": %d,\n"
           "  \"n_molecules\": %d,\n  \"n_replicas\": %d,\n  \"host_checks\": %d,\n"
           "  \"n_converged\": %d,\n  \"n_written\": %d,\n  \"prune_rms_angstrom\": %g,\n"
           "  \"out\": \"%s\",\n  \"replicas\": [",
           VKMD_VERSION, replica_record(s, 0)->name, device,
           strcmp(q->minimizer, "fire") ? "L-BFGS" : "FIRE", crit, ftol, q->energy_tol, q->memory,
           max_its, s->set.molecule_count, s->set.replica_count, checks, converged, kept,
           q->prune_rms, q->out);
    for (int32_t r = 0; r < s->set.replica_count; ++r) {
        int32_t rank = -1;
        for (int32_t i = 0; i < kept; ++i)
            rank = order[i] == r ? i : rank;
        printf("%s\n    {\"replica\": %d, \"molecule\": %d, \"energy_initial_kcal_per_mol\": "
               "%.10f, \"energy_final_kcal_per_mol\": %.10f, "
               "\"relative_energy_kcal_per_mol\": %.10f, \"steps\": %d, \"iterations\": %d, "
               "\"energy_evaluations\": %d, \"status\": %d, \"converged\": %s, "
               "\"max_force_kcal_per_mol_A\": %.4e, \"rms_force_kcal_per_mol_A\": %.4e, "
               "\"written_as\": %d}",
               r ? "," : "", r + 1, s->set.replica_molecule[r] + 1, out[r].energy_initial,
               out[r].energy_final, rel[r], out[r].iterations, out[r].iterations,
               out[r].evaluations, out[r].status, out[r].converged ? "true" : "false", out[r].fmax,
               out[r].frms, rank + 1);
    }
    printf("\n  ]\n}\n");
}

int cmd_uff_relax(int argc, char **argv)
{
    relax_request q = {.device = "auto", .minimizer = "lbfgs", .seed = 1, .perturb = -1};
    int early = relax_args(argc, argv, &q);
    if (early >= 0)
        return early;
    vkmd_result res = VKMD_OK;
    relax_set s = {0};
    vkmd_uff_eval ev = {0};
    double *final = NULL, *rel = NULL;
    vkmd_uff_relax_result *out = NULL;
    int32_t *order = NULL;
    int exit_code = 1;
    const int fire = !strcmp(q.minimizer, "fire");
    const vkmd_uff_relax_params rparams = {.minimizer =
                                               fire ? VKMD_UFF_MIN_FIRE : VKMD_UFF_MIN_LBFGS,
                                           .force_tol = q.ftol,
                                           .energy_tol = q.energy_tol,
                                           .max_iterations = q.max_steps,
                                           .memory = q.memory,
                                           .fire_rms = q.rms};
    const vkmd_uff_fire_params fp = vkmd_uff_relax_fire_params(&rparams);
    const vkmd_uff_lbfgs_params lp = vkmd_uff_relax_lbfgs_params(&rparams);
    const vkmd_uff_fire_params fused = vkmd_uff_fire_params_resolve(&fp);
    const vkmd_uff_lbfgs_params lused = vkmd_uff_lbfgs_params_resolve(&lp);
    char note[8600];
    VKMD_TRY(vkmd_outfile_claim(q.out, q.overwrite, note, sizeof note));
    if (note[0])
        fprintf(stderr, "vkmd uff relax: %s\n", note);
    (void)vkmd_stop_catch_signals(); /* a signal ends the relaxation where it is */
    VKMD_TRY(relax_set_make(&q, &s));
    const int32_t n = s.set.replica_count, nat = s.set.batch.atom_count;
    final = malloc(3 * sizeof *final * (size_t)nat);
    out = calloc((size_t)n, sizeof *out);
    rel = calloc((size_t)n, sizeof *rel);
    order = calloc((size_t)n, sizeof *order);
    if (!final || !out || !rel || !order) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "results of %d replicas", n);
        goto cleanup;
    }
    VKMD_TRY(vkmd_uff_eval_open(q.device, &ev));
    int32_t checks = 0;
    VKMD_TRY(vkmd_uff_eval_relax(&ev, &s.set, &rparams, final, out, &checks));
    int32_t kept = n;
    VKMD_TRY(vkmd_sdf_write_relaxed_set(q.out, fire ? "FIRE" : "L-BFGS", &s.set, s.records, final,
                                        out, s.multi, q.prune_rms, order, &kept, rel));
    int32_t converged = 0;
    for (int32_t r = 0; r < n; ++r)
        converged += out[r].converged;
    const char *crit = fire ? (q.rms ? "rms" : "max") : "rdkit";
    const double ftol = fire ? fused.ftol : lused.force_tol;
    const int32_t max_its = fire ? fused.max_steps : lused.max_iterations;
    if (q.json) {
        write_json(&q, &s, ev.device, crit, ftol, max_its, checks, out, order, kept, rel);
    } else {
        printf("vkmd uff relax: %s \"%s\" (%d molecule(s)), %d replica(s) from %s\n", q.molecule,
               s.records[0].name, s.set.molecule_count, n,
               s.multi   ? "its records"
               : q.confs ? q.confs
                         : "MOL");
        if (fire)
            printf("device %s; FIRE until %s |F| < %g kcal/mol/A, at most %d steps", ev.device,
                   crit, ftol, max_its);
        else
            printf("device %s; %s, RDKit's tests (forceTol %g), at most %d iterations", ev.device,
                   lused.memory ? "L-BFGS" : "BFGS", ftol, max_its);
        if (ev.ctx)
            printf("; %d host check(s)", checks);
        printf("\n\n  %7s %16s %16s %8s %8s %10s %9s\n", "replica", "E_initial", "E_final", "iters",
               "evals", "max|F|", "converged");
        for (int32_t r = 0; r < n; ++r)
            printf("  %7d %16.6f %16.6f %8d %8d %10.2e %9s\n", r + 1, out[r].energy_initial,
                   out[r].energy_final, out[r].iterations, out[r].evaluations, out[r].fmax,
                   out[r].converged ? "yes" : "no");
        printf("\n%d of %d converged; %d structure(s) written to %s%s (energies in kcal/mol)\n",
               converged, n, kept, q.out, s.multi ? ", sorted by energy" : "");
    }
    VKMD_TRY(vkmd_uff_eval_close(&ev));
    exit_code = 0;
    const int why = vkmd_stop_requested();
    if (why) {
        fprintf(stderr,
                "vkmd uff relax: stopped by %s: %d of %d replicas converged, the rest written "
                "where they stopped (CONVERGED 0) to %s: continue with vkmd uff relax %s --out "
                "NEW.sdf\n",
                vkmd_stop_name(why), converged, n, q.out, q.out);
        exit_code = vkmd_stop_exit_code(why);
    }
cleanup:
    if (exit_code == 1) {
        fflush(stdout);
        tool_error("uff relax", res);
    }
    vkmd_uff_eval_close(&ev);
    free(final);
    free(out);
    free(rel);
    free(order);
    relax_set_free(&s);
    return exit_code;
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

typedef struct md_request {
    const char *molecule, *out, *device;
    int replicas, steps, json, seed;
    window_options win;
    double dt, temperature, friction;
} md_request;

static int md_args(int argc, char **argv, md_request *q)
{
    int help = 0;
    const vkmd_option opts[] = {VKMD_OPT_STRING("--out", &q->out),
                                VKMD_OPT_STRING("--device", &q->device),
                                VKMD_OPT_FLAG("--json", &q->json),
                                VKMD_OPT_INT("--replicas", &q->replicas, 1, 1 << 24),
                                VKMD_OPT_INT("--steps", &q->steps, 0, 1 << 30),
                                VKMD_OPT_INT("--seed", &q->seed, 0, 2147483647),
                                VKMD_OPT_DOUBLE("--dt", &q->dt, 1e-3, 10),
                                VKMD_OPT_DOUBLE("--temperature", &q->temperature, 1e-3, 1e5),
                                VKMD_OPT_DOUBLE("--friction", &q->friction, 1e-6, 1e4)};
    vkmd_result r =
        uff_args(argc, argv, opts, VKMD_ARRAY_LEN(opts), "md", &q->win, &q->molecule, &help);
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
    vkmd_uff_eval ev = {0};
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
    VKMD_TRY(vkmd_uff_eval_open_desc(q.device, &cd, &ev));
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
    (void)vkmd_stop_catch_signals(); /* a signal ends the dynamics between submissions */
    VKMD_TRY(
        vkmd_uff_md_run_chunks(ev.ctx, md, nr, q.steps, view ? md_frame : NULL, &w, tmean, &done));
    const int why = vkmd_stop_requested();
    if (done < q.steps && !why)
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
    VKMD_TRY(vkmd_uff_eval_close(&ev));
    exit_code = why ? vkmd_stop_exit_code(why) : 0;
    if (why)
        fprintf(stderr, "vkmd uff md: stopped by %s after %d steps, reported above%s\n",
                vkmd_stop_name(why), done,
                q.out ? " and written to --out (a new run starts from it, new velocities)" : "");
cleanup:
    if (exit_code == 1) {
        fflush(stdout);
        tool_error("uff md", res);
    }
    vkmd_viewer_close(view, ev.ctx);
    vkmd_uff_md_destroy(ev.ctx, md);
    vkmd_uff_eval_close(&ev);
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
