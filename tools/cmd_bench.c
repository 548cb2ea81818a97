/* vkmd bench: options; the MD suite (sim/bench_md.h), the --forces
 * (sim/bench_forces.h) and --uff (sim/bench_uff.h) suites' tables, their
 * result files written by the engine; --compare's table and plot are the
 * engine's too (sim/bench_md_file.h). The force errors of --forces are
 * against the double reference (ref/), computed here, as is the CPU
 * reference's rate of --uff. */
#include "core/options.h"
#include "core/stop.h"
#include "commands.h"
#include "forces/forcefield.h"
#include "forces/positions.h"
#include "forces/precision.h"
#include "io/load.h"
#include "io/uff_load.h"
#include "ref/ref.h"
#include "ref/ref_uff.h"
#include "sim/bench_forces.h"
#include "sim/bench_md_file.h"
#include "sim/bench_uff.h"
#include "vk/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_RUNS 32

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: vkmd bench [options]            MD suite: ns/day, us/step, dispatches,\n"
        "                                      submits and GPU time by pass per step\n"
        "       vkmd bench --forces|--uff [options]\n"
        "       vkmd bench --compare A.json B.json ... [--svg FILE]\n"
        "  (MD suite) --systems LIST   water:N or prmtop paths (default water:1000,\n"
        "                         water:8000,water:32000: ~3k, ~24k, ~96k atoms)\n"
        "  --dt LIST              4 (HMR 1.5 amu), 2 (no HMR) or 4,2 (default 4,2)\n"
        "  --steps N              timed steps per run (default 2e6/atoms, 20..1000)\n"
        "  --skin A, --outer-skin A  neighbour-list skins (default 1 A and from the time\n"
        "                         step: 3.2 A at 2 fs, 6.4 A at 4 fs)\n"
        "  --compare FILES        markdown table of result files (speed, dispatches, pair work,\n"
        "                         rebuilds) and an SVG of ns/day\n"
        "                         against atoms (--svg FILE, default bench_compare.svg)\n"
        "  --forces               time full force evaluations (energy + forces)\n"
        "  --uff                  UFF replica evaluations per second (--molecule, default\n"
        "                         xylitol; a file of several records, molecules or\n"
        "                         conformers: one mixed batch, replicas cycling through\n"
        "                         them; --replicas LIST, default 1,100,10000)\n"
        "  --relax                with --uff: also relax every replica (--minimizer\n"
        "                         lbfgs|fire, default lbfgs): relaxations/s, iterations to\n"
        "                         converge (median, max), evaluations/s while relaxing,\n"
        "                         and by molecule size (16 atoms a bucket)\n"
        "  --systems LIST         comma-separated systems: prmtop paths (coordinates\n"
        "                         beside them) or water:N (default water:8000)\n"
        "  --repeat N             evaluations averaged per figure (default 20)\n"
        "  --precision single|mixed|fixed|all  positions (fp32, split-float, split-int;\n"
        "                         all: the three side by side; default single)\n"
        "  --positions fp32|split-float|split-int  the same by representation\n"
        "  --nonbonded fp32|fp16[-powers][:R]|all  LJ precision (docs/PRECISION.md); all:\n"
        "                         variants side by side (MD suite: fp32, fp16:5,\n"
        "                         fp16-powers:5; --forces: five, each with its force\n"
        "                         error against the double reference)\n"
        "  --device N|NAME        Vulkan device (default: the best one)\n"
        "  --json FILE            also write the results as JSON (units in the keys)\n");
}

typedef vkmd_bench_forces_result bench_result;

/* One variant timed: LJ precision (VKMD_LJ_*) beyond min_r A, positions
 * (VKMD_POSITIONS_*). */
typedef struct bench_variant {
    int lj;
    double min_r;
    int positions;
} bench_variant;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* The CPU double reference's rate for scale: one replica at a time for
 * half a second. */
static vkmd_result cpu_uff_rate(const vkmd_uff_molecule *m, const vkmd_uff_terms *terms,
                                double *out_evals_per_s)
{
    double *f = malloc(sizeof *f * 3 * (size_t)m->atom_count);
    if (!f)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench --uff");
    vkmd_result res = VKMD_OK;
    int n = 0;
    const double t0 = now_ms();
    vkmd_uff_energy e;
    do {
        res = vkmd_ref_uff_compute(terms, vkmd_uff_molecule_conformer(m, 0), &e, f);
        ++n;
    } while (res == VKMD_OK && now_ms() - t0 < 500);
    *out_evals_per_s = n / ((now_ms() - t0) * 1e-3);
    free(f);
    return res;
}

static int bench_uff_main(const char *device, const char *molecule, const int32_t *reps, int nrep,
                          int repeat, int relax, const char *minimizer, const char *json)
{
    const int fire = !strcmp(minimizer, "fire");
    const vkmd_uff_relax_params rp = {.minimizer = fire ? VKMD_UFF_MIN_FIRE : VKMD_UFF_MIN_LBFGS};
    const char *mname = relax ? (fire ? "FIRE" : "L-BFGS") : NULL;
    vkmd_vk_context *ctx = NULL;
    vkmd_bench_uff_result res[16];
    double cpu = 0;
    vkmd_uff_molecule *recs = NULL;
    int32_t nrec = 0;
    vkmd_uff_relax_set set = {0};
    const vkmd_uff_relax_set_desc sd = {.same_molecules = 1};
    const vkmd_vk_context_desc cd = {.device = device};
    vkmd_result r = vkmd_vk_context_create(&cd, &ctx);
    if (r == VKMD_OK)
        r = vkmd_uff_molecule_load(molecule, &recs, &nrec);
    /* Every record (a mixed batch when they are different molecules). */
    if (r == VKMD_OK)
        r = vkmd_uff_relax_set_build(recs, nrec, &sd, &set);
    if (r == VKMD_OK)
        r = vkmd_bench_uff_run(ctx, &set, reps, nrep, repeat, relax ? &rp : NULL, res);
    if (r == VKMD_OK)
        r = cpu_uff_rate(&recs[0], &set.terms[0], &cpu);
    if (r == VKMD_OK) {
        const vkmd_vk_device_info *d = &ctx->info;
        if (nrec > 1)
            printf("vkmd bench --uff: %d records of %d molecules, one mixed batch; replicas cycle "
                   "through the records\n",
                   nrec, set.molecule_count);
        vkmd_bench_uff_write_table(stdout, molecule, d, mname, res, nrep);
        printf("CPU double reference (the first record, one replica at a time, one core): %.1f "
               "evals/s\n",
               cpu);
        if (json)
            r = vkmd_bench_uff_write(json, molecule, d->name, cpu, mname, res, nrep);
    }
    if (r == VKMD_OK)
        r = vkmd_vk_context_check_validation(ctx);
    int rc = r == VKMD_OK ? 0 : tool_error("bench", r);
    vkmd_uff_relax_set_free(&set);
    vkmd_uff_molecule_array_free(recs, nrec);
    vkmd_vk_context_destroy(ctx);
    return rc;
}

static void md_progress(void *user, const char *name, int32_t atoms, double dt_fs)
{
    (void)user;
    fprintf(stderr, "vkmd bench: %s (%d atoms) at %g fs...\n", name, atoms, dt_fs);
}

/* The MD suite (sim/bench_md.h) on every system of the comma-separated
 * `systems` (NULL: water boxes of ~3k, ~24k and ~96k atoms), time step of
 * `dts` ("4,2": 4 fs with HMR 1.5 amu, 2 fs without) and variant; prints
 * the tables, writes the result file to `json` if not NULL. */
static int bench_md_main(const char *device, const char *systems, const char *dts, int steps,
                         const bench_variant *var, int nvar, double skin_a, double outer_skin_a,
                         const char *json)
{
    vkmd_result res = VKMD_OK;
    vkmd_vk_context *ctx = NULL;
    vkmd_bench_md_result *runs = calloc(MAX_RUNS, sizeof *runs);
    int n = 0;
    double dt_list[4];
    int ndt = 0;
    if (!runs)
        return tool_error("bench", vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench: out of memory"));
    res = vkmd_option_list("--dt", dts, 2, 4, dt_list, 4, &ndt);
    for (int k = 0; res == VKMD_OK && k < ndt; ++k)
        if (dt_list[k] != 2 && dt_list[k] != 4)
            res =
                vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                          "--dt: expected 4, 2 or 4,2 (fs; 4 fs uses HMR 1.5 amu), got '%s'", dts);
    const vkmd_vk_context_desc cd = {.device = device};
    (void)vkmd_stop_catch_signals(); /* a signal ends the suite with what it measured */
    if (res == VKMD_OK)
        res = vkmd_vk_context_create(&cd, &ctx);
    vkmd_bench_md_desc descs[64];
    int nd = 0;
    for (int k = 0; k < ndt; ++k)
        for (int v = 0; v < nvar; ++v)
            descs[nd++] = (vkmd_bench_md_desc){.dt_fs = dt_list[k],
                                               .steps = steps,
                                               .lj = var[v].lj,
                                               .lj_min_r_a = var[v].min_r,
                                               .positions = var[v].positions,
                                               .skin_a = skin_a,
                                               .outer_skin_a = outer_skin_a};
    if (res == VKMD_OK)
        res = vkmd_bench_md_suite(ctx, systems ? systems : "water:1000,water:8000,water:32000",
                                  descs, nd, md_progress, NULL, runs, MAX_RUNS, &n);
    if (res == VKMD_OK) {
        vkmd_bench_md_write_table(stdout, &ctx->info, runs, n);
        if (json)
            res = vkmd_bench_md_write(json, &ctx->info, runs, n);
    }
    if (res == VKMD_OK)
        res = vkmd_vk_context_check_validation(ctx);
    const int why = vkmd_stop_requested();
    if (why && res == VKMD_OK)
        fprintf(stderr,
                "vkmd bench: stopped by %s after %d run(s), shown above%s; run again to "
                "measure the rest\n",
                vkmd_stop_name(why), n, json ? " and written" : "");
    const int rc = res != VKMD_OK ? tool_error("bench", res) : why ? vkmd_stop_exit_code(why) : 0;
    vkmd_vk_context_destroy(ctx);
    free(runs);
    return rc;
}

#define MAX_COMPARE_FILES 16

/* --compare: the markdown table and the SVG of result files. */
static int bench_compare(char **paths, int count, const char *svg)
{
    if (count < 1 || count > MAX_COMPARE_FILES) {
        fprintf(stderr, "vkmd bench --compare: give 1 to %d result files\n", MAX_COMPARE_FILES);
        return 2;
    }
    vkmd_bench_md_file *files = calloc((size_t)count, sizeof *files);
    if (!files)
        return tool_error("bench", vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench: out of memory"));
    vkmd_result res = VKMD_OK;
    for (int i = 0; i < count && res == VKMD_OK; ++i)
        res = vkmd_bench_md_read(paths[i], &files[i]);
    if (res == VKMD_OK) {
        vkmd_bench_md_compare_write(stdout, files, count);
        res = vkmd_bench_md_compare_svg(svg, files, count);
        if (res == VKMD_OK)
            fprintf(stderr, "vkmd bench --compare: plot written to %s\n", svg);
    }
    free(files);
    return res == VKMD_OK ? 0 : tool_error("bench", res);
}

int cmd_bench(int argc, char **argv)
{
    const char *systems = NULL, *device = NULL, *json = NULL;
    const char *molecule = "xylitol", *replica_list = "1,100,10000", *minimizer = "lbfgs";
    int repeat = 20, forces = 0, uff = 0, relax = 0, md_steps = 0;
    int lj_all = 0, lj_one = VKMD_LJ_FP32;
    double lj_one_min_r = 0;
    int pos_modes[3] = {VKMD_POSITIONS_FP32}, pos_count = 1;
    const char *dts = "4,2", *svg = "bench_compare.svg";
    double skin = 0, outer_skin = 0;
    if (argc >= 2 && !strcmp(argv[1], "--compare")) {
        int count = 0;
        char *files[16];
        for (int i = 2; i < argc; ++i) {
            if (!strcmp(argv[i], "--svg") && i + 1 < argc)
                svg = argv[++i];
            else if (count < 16)
                files[count++] = argv[i];
        }
        return bench_compare(files, count, svg);
    }
    const vkmd_option opts[] = {VKMD_OPT_FLAG("--forces", &forces),
                                VKMD_OPT_FLAG("--uff", &uff),
                                VKMD_OPT_FLAG("--relax", &relax),
                                VKMD_OPT_DOUBLE("--skin", &skin, 0.1, 15.0),
                                VKMD_OPT_DOUBLE("--outer-skin", &outer_skin, 0.1, 15.0),
                                VKMD_OPT_STRING("--systems", &systems),
                                VKMD_OPT_STRING("--device", &device),
                                VKMD_OPT_STRING("--json", &json),
                                VKMD_OPT_INT("--repeat", &repeat, 1, 100000),
                                VKMD_OPT_STRING("--molecule", &molecule),
                                VKMD_OPT_STRING("--minimizer", &minimizer),
                                VKMD_OPT_STRING("--replicas", &replica_list),
                                VKMD_OPT_STRING("--dt", &dts),
                                VKMD_OPT_INT("--steps", &md_steps, 1, 100000000)};
    vkmd_result r = VKMD_OK;
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i], *v = NULL;
        if (vkmd_options_parse(argc, argv, &i, opts, VKMD_ARRAY_LEN(opts), &r))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--precision")) {
            vkmd_precision pr = VKMD_PRECISION_SINGLE;
            if (!(v = vkmd_option_value(argc, argv, &i)))
                r = VKMD_ERROR_INVALID_ARGUMENT;
            else if (!strcmp(v, "all")) {
                pos_count = 3;
                for (int k = 0; k < 3; ++k)
                    pos_modes[k] = k; /* fp32, split-float, split-int */
            } else if ((r = vkmd_precision_parse(v, &pr)) == VKMD_OK) {
                if (pr == VKMD_PRECISION_AUTO)
                    r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                  "--precision: bench times explicit modes (single, mixed, "
                                  "fixed or all); vkmd run and energy print what auto picks");
                pos_count = 1;
                pos_modes[0] = pr == VKMD_PRECISION_MIXED   ? VKMD_POSITIONS_SPLIT_FLOAT
                               : pr == VKMD_PRECISION_FIXED ? VKMD_POSITIONS_SPLIT_INT
                                                            : VKMD_POSITIONS_FP32;
            }
        } else if (!strcmp(a, "--positions")) {
            if (!(v = vkmd_option_value(argc, argv, &i)))
                r = VKMD_ERROR_INVALID_ARGUMENT;
            else {
                pos_count = 1;
                r = vkmd_positions_mode_parse(v, &pos_modes[0]);
            }
        } else if (!strcmp(a, "--nonbonded")) {
            if (!(v = vkmd_option_value(argc, argv, &i)))
                r = VKMD_ERROR_INVALID_ARGUMENT;
            else if (!strcmp(v, "all"))
                lj_all = 1;
            else
                r = vkmd_lj_option_parse(a, v, &lj_one, &lj_one_min_r);
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown option '%s'", a);
        }
    }
    if (r == VKMD_OK && forces + uff > 1)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "give at most one of --forces and --uff");
    if (r == VKMD_OK && strcmp(minimizer, "lbfgs") && strcmp(minimizer, "fire"))
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "--minimizer '%s': expected lbfgs or fire",
                      minimizer);
    int32_t reps[16];
    int nrep = 0;
    if (r == VKMD_OK && uff) {
        double list[16];
        r = vkmd_option_list("--replicas", replica_list, 1, 10000000, list, 16, &nrep);
        for (int k = 0; r == VKMD_OK && k < nrep; ++k) {
            if (list[k] != floor(list[k]))
                r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                              "--replicas: %g is not a whole number of replicas", list[k]);
            reps[k] = (int32_t)list[k];
        }
    }
    if (r != VKMD_OK) {
        fprintf(stderr, "vkmd bench: %s\n", vkmd_last_error());
        usage(stderr);
        return 2;
    }

    if (uff)
        return bench_uff_main(device, molecule, reps, nrep, repeat, relax, minimizer, json);
    /* The variants: positions modes, each with one LJ precision or (all)
     * several side by side: for --forces all five forms, each with its force
     * error; for the MD suite fp32 and the fp16 forms that meet the force
     * criterion (beyond 5 A; docs/PRECISION.md). */
    static const bench_variant all[] = {{VKMD_LJ_FP32, 0, 0},
                                        {VKMD_LJ_FP16, 0, 0},
                                        {VKMD_LJ_FP16_POWERS, 0, 0},
                                        {VKMD_LJ_FP16, 5, 0},
                                        {VKMD_LJ_FP16_POWERS, 5, 0}};
    static const int md_all[] = {0, 3, 4};
    const int lj_variants = !lj_all  ? 1
                            : forces ? (int)VKMD_ARRAY_LEN(all)
                                     : (int)VKMD_ARRAY_LEN(md_all);
    bench_variant var[15];
    int variants = 0;
    for (int p = 0; p < pos_count; ++p)
        for (int l = 0; l < lj_variants; ++l, ++variants) {
            var[variants] = !lj_all  ? (bench_variant){lj_one, lj_one_min_r, 0}
                            : forces ? all[l]
                                     : all[md_all[l]];
            var[variants].positions = pos_modes[p];
        }
    if (!forces)
        return bench_md_main(device, systems, dts, md_steps, var, variants, skin, outer_skin, json);

    char *list = strdup(systems ? systems : "water:8000");
    bench_result results[64];
    /* Force errors: against the reference of the float-rounded positions
     * when only the LJ arithmetic varies (it isolates that), against the
     * exact positions when the position representation varies (the whole
     * mode's error, input rounding included). */
    const int with_ref = lj_all || pos_count > 1;
    const int exact_ref = pos_count > 1 || pos_modes[0] != VKMD_POSITIONS_FP32;
    double *ref = NULL;
    int n = 0;
    vkmd_vk_context *ctx = NULL;
    const vkmd_vk_context_desc cd = {.device = device};
    r = list ? vkmd_vk_context_create(&cd, &ctx)
             : vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "system list");
    for (char *save = NULL, *tok = list ? strtok_r(list, ",", &save) : NULL;
         r == VKMD_OK && tok && n + variants <= 64; tok = strtok_r(NULL, ",", &save)) {
        fprintf(stderr, "vkmd bench: %s ...\n", tok);
        vkmd_energy eref;
        if (with_ref) {
            /* The double reference of the positions the device sees (floats),
             * or of the exact ones (see exact_ref). */
            vkmd_system sys = {0};
            vkmd_ff_settings st = {0};
            r = vkmd_system_load(tok, NULL, &sys);
            if (r == VKMD_OK)
                r = vkmd_ff_settings_resolve(&st, &sys);
            free(ref);
            ref = r == VKMD_OK ? malloc(sizeof *ref * 3 * (size_t)sys.atom_count) : NULL;
            if (r == VKMD_OK && !ref)
                r = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench: reference forces");
            for (int k = 0; r == VKMD_OK && !exact_ref && k < 3 * sys.atom_count; ++k)
                sys.positions[k] = (double)(float)sys.positions[k];
            if (r == VKMD_OK)
                r = vkmd_ref_compute(&sys, &st, &eref, ref);
            vkmd_system_destroy(&sys);
        }
        for (int k = 0; r == VKMD_OK && k < variants; ++k) {
            const vkmd_bench_forces_desc bd = {.repeat = repeat,
                                               .lj = var[k].lj,
                                               .lj_min_r_a = var[k].min_r,
                                               .positions = var[k].positions,
                                               .ref_forces = with_ref ? ref : NULL,
                                               .ref_energy = &eref};
            r = vkmd_bench_forces_run(ctx, tok, &bd, &results[n]);
            if (r == VKMD_OK)
                ++n;
        }
    }
    free(ref);
    if (r == VKMD_OK) {
        vkmd_bench_forces_write_table(stdout, &ctx->info, results, n);
        if (json)
            r = vkmd_bench_forces_write(json, &ctx->info, results, n, repeat);
    }
    if (r == VKMD_OK)
        r = vkmd_vk_context_check_validation(ctx);
    int rc = r == VKMD_OK ? 0 : tool_error("bench", r);
    vkmd_vk_context_destroy(ctx);
    free(list);
    return rc;
}
