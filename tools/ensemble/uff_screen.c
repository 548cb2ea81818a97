/* vkmd-mpi uff relax | scan LIBRARY: a UFF screen of a library of molecules
 * (every record of an SDF, or an XYZ file's frames as one molecule's
 * conformers) split across the MPI ranks and gathered in input order:
 *   - the records are dealt in contiguous blocks (rank r takes records
 *     [r N / R, (r + 1) N / R)), so concatenating the ranks' outputs in rank
 *     order is the input order;
 *   - scan: every conformer of every record of the rank's block is one
 *     replica of the multi-molecule UFF pass (eval/uff_eval.h), evaluated in
 *     batches of --replicas (default: the whole block in one batch) on the
 *     rank's device, or on the CPU reference with --device cpu; JSON out;
 *   - relax: each record's first conformer relaxed, the rank's whole block
 *     in one mixed batch (system/uff_relax_set.h) on its device
 *     (sim/uff_relax.h: the quasi-Newton minimiser by default, or FIRE;
 *     ref/ref_uff_lbfgs.h or ref_uff_fire.h one molecule at a time on the
 *     CPU), SDF out with the report as data
 *     items, and a JSON report. Each replica runs at its own pace, so a
 *     molecule's result does not depend on its batch companions.
 * A molecule that cannot be typed or relaxed does not stop the screen: its
 * JSON entry carries the error and its SDF record the input coordinates with
 * a VKMD_ERROR data item. The outputs do not depend on the number of ranks:
 * each molecule's numbers are those of a one-rank run (tests/test_mpi_uff.sh).
 * Each rank formats its block in memory; rank 0 gathers (MPI_Gatherv) and
 * writes. */
#include "uff_screen.h"
#include "core/options.h"
#include "core/stop.h"
#include "core/json_write.h"
#include "eval/uff_eval.h"
#include "io/uff_library_report.h"
#include "io/uff_record_setup.h"
#include "io/uff_load.h"
#include "rank_device.h"
#include "sim/uff_relax.h"
#include "system/uff_relax_set.h"
#include "system/uff_terms.h"
#include "system/uff_typing.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct screen {
    const char *library, *out, *json_out, *device, *minimizer;
    int relax, max_steps, replicas, memory;
    double ftol, energy_tol;
    int rank, size;
    MPI_Comm comm;
} screen;

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: mpirun -n R vkmd-mpi uff scan|relax LIBRARY --out FILE [options]\n"
        "  LIBRARY              SDF/MOL V2000 (every record a molecule) or XYZ; records are\n"
        "                       dealt to the ranks in contiguous blocks; outputs in input order\n"
        "scan: UFF energy (kcal/mol) of every conformer of every record; --out FILE is JSON\n"
        "  --replicas N         replicas per dispatch (default: a rank's block at once)\n"
        "relax: each record's first conformer relaxed (a rank's block in one batch);\n"
        "  --out FILE is a multi-record SDF\n"
        "  --json-out FILE      the per-molecule report as JSON too\n"
        "  --minimizer lbfgs|fire  as vkmd uff relax (default lbfgs: RDKit's BFGS)\n"
        "  --ftol F             lbfgs: RDKit's forceTol (default 1e-4); fire: max |F| < F\n"
        "                       kcal/mol/A (default 1e-3)\n"
        "  --energy-tol E, --memory M  lbfgs only, as vkmd uff relax\n"
        "  --max-steps N        iterations per molecule at most (lbfgs 1000, fire 20000)\n"
        "both:\n"
        "  --device cpu|gpu|N|NAME  cpu: the double reference; default: the rank's GPU by\n"
        "                       its node-local rank\n");
}

static vkmd_result parse(int argc, char **argv, screen *s)
{
    vkmd_result r = VKMD_OK;
    const vkmd_option opts[] = {VKMD_OPT_STRING("--out", &s->out),
                                VKMD_OPT_STRING("--json-out", &s->json_out),
                                VKMD_OPT_STRING("--device", &s->device),
                                VKMD_OPT_STRING("--minimizer", &s->minimizer),
                                VKMD_OPT_INT("--max-steps", &s->max_steps, 0, 1 << 30),
                                VKMD_OPT_INT("--memory", &s->memory, 0, 16),
                                VKMD_OPT_INT("--replicas", &s->replicas, 1, 1 << 24),
                                VKMD_OPT_DOUBLE("--ftol", &s->ftol, 1e-8, 1e6),
                                VKMD_OPT_DOUBLE("--energy-tol", &s->energy_tol, 0, 1)};
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i];
        if (vkmd_options_parse(argc, argv, &i, opts, VKMD_ARRAY_LEN(opts), &r))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return VKMD_RESULT_COUNT;
        } else if (a[0] == '-' && a[1]) {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown option '%s' (see --help)", a);
        } else if (!s->library) {
            s->library = a;
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unexpected argument '%s'", a);
        }
    }
    if (r == VKMD_OK && !s->library)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no LIBRARY given (see --help)");
    if (r == VKMD_OK && !s->out)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no --out FILE given");
    if (r == VKMD_OK && s->minimizer && strcmp(s->minimizer, "lbfgs") &&
        strcmp(s->minimizer, "fire"))
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "--minimizer %s: expected lbfgs or fire",
                      s->minimizer);
    if (r == VKMD_OK && s->minimizer && !strcmp(s->minimizer, "fire") &&
        (s->energy_tol > 0 || s->memory > 0))
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "--energy-tol and --memory are for lbfgs");
    if (r == VKMD_OK && !s->relax && s->json_out)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "--json-out is for relax (scan writes JSON)");
    return r;
}

/* Rank 0 receives every rank's text (in rank order) and writes it to path
 * after `head`, then `tail`. Returns an error on rank 0 only. */
static vkmd_result gather_write(const screen *s, const char *text, size_t len, const char *path,
                                const char *head, const char *tail)
{
    int mine = (int)len, *lens = NULL, *offs = NULL;
    char *all = NULL;
    if (s->rank == 0) {
        lens = calloc((size_t)s->size, sizeof *lens);
        offs = calloc((size_t)s->size, sizeof *offs);
    }
    MPI_Gather(&mine, 1, MPI_INT, lens, 1, MPI_INT, 0, s->comm);
    long total = 0;
    if (s->rank == 0 && lens && offs) {
        for (int r = 0; r < s->size; ++r) {
            offs[r] = (int)total;
            total += lens[r];
        }
        all = malloc((size_t)total + 1);
    }
    MPI_Gatherv(text, mine, MPI_CHAR, all, lens, offs, MPI_CHAR, 0, s->comm);
    vkmd_result res = VKMD_OK;
    if (s->rank == 0) {
        FILE *f = all ? fopen(path, "w") : NULL;
        if (!all)
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: %ld bytes of results", path, total);
        else if (!f)
            res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot write: %s", path, strerror(errno));
        else {
            fputs(head, f);
            fwrite(all, 1, (size_t)total, f);
            fputs(tail, f);
            if (fclose(f) != 0)
                res = vkmd_fail(VKMD_ERROR_IO, "%s: error writing: %s", path, strerror(errno));
        }
    }
    free(all);
    free(lens);
    free(offs);
    return res;
}

/* Relaxes each record of [lo, hi) that UFF can type from its first
 * conformer: the block in one batch on the device, or one at a time with
 * the CPU reference (system/uff_relax_set.h, vkmd_uff_eval_relax); a record it
 * cannot type is written with its input coordinates and the error. */
static vkmd_result run_relax(const screen *s, vkmd_uff_eval *ev, vkmd_uff_molecule *recs,
                             int32_t lo, int32_t hi, FILE *sdf, FILE *js, int32_t *out_failed)
{
    const int fire = s->minimizer && !strcmp(s->minimizer, "fire");
    const vkmd_uff_relax_params rp = {.minimizer = fire ? VKMD_UFF_MIN_FIRE : VKMD_UFF_MIN_LBFGS,
                                      .force_tol = s->ftol,
                                      .energy_tol = s->energy_tol,
                                      .max_iterations = s->max_steps,
                                      .memory = s->memory};
    const vkmd_uff_relax_set_desc sd = {.skip_failures = 1};
    vkmd_uff_relax_set set;
    vkmd_result res = vkmd_uff_relax_set_build(recs + lo, hi - lo, &sd, &set);
    const int32_t nr = set.replica_count;
    double *final = malloc(3 * sizeof *final * (size_t)(nr ? set.batch.atom_count : 1));
    vkmd_uff_relax_result *out = calloc((size_t)nr + 1, sizeof *out);
    int32_t *rep_of = malloc(sizeof *rep_of * (size_t)(hi - lo + 1)); /* record -> replica */
    if (res == VKMD_OK && (!final || !out || !rep_of))
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d molecules", hi - lo);
    if (res == VKMD_OK)
        res = vkmd_uff_eval_relax(ev, &set, &rp, final, out, NULL);
    for (int32_t k = 0; res == VKMD_OK && k < hi - lo; ++k)
        rep_of[k] = -1;
    for (int32_t r = 0; res == VKMD_OK && r < nr; ++r)
        rep_of[set.replica_record[r]] = r;
    for (int32_t k = 0; res == VKMD_OK && k < hi - lo; ++k) {
        const int32_t r = rep_of[k];
        char err[400];
        if (r < 0) {
            snprintf(err, sizeof err, "%s: %s", vkmd_result_str(set.record_result[k]),
                     set.record_error[k][0] ? set.record_error[k] : "typing failed");
            ++*out_failed;
        }
        res = vkmd_uff_library_write_relaxed(
            sdf, js, fire ? "fire" : "lbfgs", &recs[lo + k], lo + k + 1,
            r < 0 ? recs[lo + k].positions : vkmd_uff_relax_set_replica(&set, final, r),
            r < 0 ? NULL : &out[r], err);
    }
    free(final);
    free(out);
    free(rep_of);
    vkmd_uff_relax_set_free(&set);
    return res;
}

/* The energy of every conformer of each record of [lo, hi) that UFF can
 * type, in batches of --replicas replicas on the device or on the CPU
 * reference; a record it cannot type gets its error. */
static vkmd_result run_scan(const screen *s, vkmd_uff_eval *ev, vkmd_uff_molecule *recs, int32_t lo,
                            int32_t hi, FILE *js, int32_t *out_failed, int32_t *out_unrun)
{
    const int32_t nm = hi - lo;
    vkmd_uff_record_setup set;
    VKMD_TRY_RETURN(vkmd_uff_record_setup_each(recs + lo, nm, &set));
    int32_t n = 0, nr = 0;
    for (int32_t k = 0; k < nm; ++k)
        n += recs[lo + k].conformer_count;
    vkmd_uff_replica *reps = calloc((size_t)n + 1, sizeof *reps);
    vkmd_uff_energy *e = calloc((size_t)n + 1, sizeof *e);
    vkmd_result res = reps && e ? VKMD_OK : vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d molecules", nm);
    for (int32_t k = 0; res == VKMD_OK && k < nm; ++k)
        for (int32_t c = 0; set.result[k] == VKMD_OK && c < recs[lo + k].conformer_count; ++c)
            reps[nr++] = (vkmd_uff_replica){k, vkmd_uff_molecule_conformer(&recs[lo + k], c)};
    ev->replicas_per_batch = s->replicas;
    ev->debug_replica = -1;
    int32_t done = nr;
    if (res == VKMD_OK && nr > 0) {
        res = vkmd_uff_eval_run(ev, set.terms_of, nm, reps, nr, e, NULL, NULL, NULL);
        if (res == VKMD_ERROR_STOPPED && vkmd_stop_requested()) {
            done = ev->done; /* the records scanned whole are written, the rest marked */
            res = VKMD_OK;
        }
    }
    for (int32_t k = 0, r = 0; res == VKMD_OK && k < nm; ++k) {
        char msg[400];
        const int typed = set.result[k] == VKMD_OK;
        const int scanned = !typed || r + recs[lo + k].conformer_count <= done;
        if (scanned)
            snprintf(msg, sizeof msg, "%s: %s", vkmd_result_str(set.result[k]), set.error[k]);
        else
            snprintf(msg, sizeof msg, "%s: not scanned: the screen was stopped by %s",
                     vkmd_result_str(VKMD_ERROR_STOPPED), vkmd_stop_name(vkmd_stop_requested()));
        *out_failed += !typed;
        *out_unrun += !scanned;
        vkmd_uff_library_write_energies(js, &recs[lo + k], lo + k + 1,
                                        typed && scanned ? e + r : NULL, msg);
        r += typed ? recs[lo + k].conformer_count : 0;
    }
    vkmd_uff_record_setup_free(&set);
    free(reps);
    free(e);
    return res;
}

int cmd_uff_screen(int argc, char **argv, MPI_Comm comm)
{
    screen s = {.rank = 0, .comm = comm};
    MPI_Comm_rank(comm, &s.rank);
    MPI_Comm_size(comm, &s.size);
    if (argc < 2 || (strcmp(argv[1], "relax") && strcmp(argv[1], "scan"))) {
        if (s.rank == 0)
            usage(stderr);
        return 2;
    }
    s.relax = !strcmp(argv[1], "relax");
    vkmd_result res = parse(argc - 1, argv + 1, &s);
    if (res == VKMD_RESULT_COUNT)
        return 0;
    if (res != VKMD_OK) {
        if (s.rank == 0)
            fprintf(stderr, "vkmd-mpi uff: %s: %s\n", vkmd_result_str(res), vkmd_last_error());
        return 2;
    }
    /* A signal ends each rank's work where it is (scan: between batches;
     * relax: between host checks); what was done is written. */
    (void)vkmd_stop_catch_signals();
    vkmd_uff_molecule *recs = NULL;
    int32_t count = 0, failed = 0, unrun = 0;
    vkmd_uff_eval ev = {0};
    char device[256] = "cpu", *text = NULL, *sdf_text = NULL;
    size_t len = 0, sdf_len = 0;
    FILE *js = open_memstream(&text, &len);
    FILE *sdf = s.relax ? open_memstream(&sdf_text, &sdf_len) : NULL;
    if (!js || (s.relax && !sdf))
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "result buffers");
    if (res == VKMD_OK)
        res = vkmd_uff_molecule_load(s.library, &recs, &count);
    if (res == VKMD_OK && !(s.device && !strcmp(s.device, "cpu")))
        res =
            rank_device_choose(s.device, rank_device_local_rank(comm, NULL), device, sizeof device);
    if (res == VKMD_OK)
        res = vkmd_uff_eval_open(device, &ev);
    const int32_t lo = (int32_t)((int64_t)count * s.rank / s.size);
    const int32_t hi = (int32_t)((int64_t)count * (s.rank + 1) / s.size);
    if (res == VKMD_OK)
        res = s.relax ? run_relax(&s, &ev, recs, lo, hi, sdf, js, &failed)
                      : run_scan(&s, &ev, recs, lo, hi, js, &failed, &unrun);
    if (res == VKMD_OK && ev.ctx)
        res = vkmd_uff_eval_close(&ev);
    if (js)
        fclose(js);
    if (sdf)
        fclose(sdf);
    if (res != VKMD_OK)
        fprintf(stderr, "vkmd-mpi uff %s: rank %d: %s: %s\n", argv[1], s.rank, vkmd_result_str(res),
                vkmd_last_error());
    /* Everyone learns whether anyone failed before anything is written. */
    int bad = res != VKMD_OK, any_bad = 0, all_failed = 0, all_unrun = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, comm);
    MPI_Reduce(&failed, &all_failed, 1, MPI_INT, MPI_SUM, 0, comm);
    MPI_Reduce(&unrun, &all_unrun, 1, MPI_INT, MPI_SUM, 0, comm);
    /* A stop on any rank: the exit status and line of the first signal seen. */
    int why = vkmd_stop_requested(), stop_code = why ? vkmd_stop_exit_code(why) : 0, any_stop = 0;
    MPI_Allreduce(&stop_code, &any_stop, 1, MPI_INT, MPI_MAX, comm);
    int exit_code = 1;
    if (!any_bad) {
        char head[1024];
        const char *path_js = s.relax ? s.json_out : s.out;
        vkmd_result w = VKMD_OK;
        if (s.relax)
            w = gather_write(&s, sdf_text, sdf_len, s.out, "", "");
        if (path_js) {
            snprintf(head, sizeof head,
                     "{\n  \"units\": {\"energy\": \"kcal/mol\", \"force\": "
                     "\"kcal/mol/angstrom\"},\n  \"command\": \"uff %s\",\n  \"library\": ",
                     argv[1]);
            /* The library name is part of the head: write it escaped. */
            char *h2 = NULL;
            size_t h2_len = 0;
            FILE *hf = open_memstream(&h2, &h2_len);
            if (hf) {
                fputs(head, hf);
                vkmd_json_write_string(hf, s.library);
                fprintf(hf, ",\n  \"molecules\": %d,\n  \"records\": [\n", count);
                fclose(hf);
            }
            const vkmd_result w2 =
                gather_write(&s, text, len, path_js, h2 ? h2 : head, "\n  ]\n}\n");
            free(h2);
            if (w == VKMD_OK)
                w = w2;
        }
        if (s.rank == 0) {
            if (w != VKMD_OK)
                fprintf(stderr, "vkmd-mpi uff %s: %s: %s\n", argv[1], vkmd_result_str(w),
                        vkmd_last_error());
            else
                printf("vkmd-mpi uff %s: %d molecules of %s on %d ranks (rank 0: %s); %d "
                       "failed; results in input order in %s%s%s\n",
                       argv[1], count, s.library, s.size, ev.device, all_failed, s.out,
                       s.relax && s.json_out ? " and " : "",
                       s.relax && s.json_out ? s.json_out : "");
        }
        exit_code = w == VKMD_OK ? 0 : 1;
        if (exit_code == 0 && any_stop) {
            const char *sig = any_stop == 143 ? "SIGTERM" : "SIGINT or a stop request";
            if (s.rank == 0 && s.relax)
                fprintf(stderr,
                        "vkmd-mpi uff relax: stopped by %s: every structure written to %s where "
                        "it stopped (CONVERGED 0 unless done); relax that file again to go on\n",
                        sig, s.out);
            else if (s.rank == 0)
                fprintf(stderr,
                        "vkmd-mpi uff scan: stopped by %s: %d molecule(s) not scanned, marked "
                        "\"not scanned\" in %s; scan again to have them all\n",
                        sig, all_unrun, s.out);
            exit_code = any_stop;
        }
        MPI_Bcast(&exit_code, 1, MPI_INT, 0, comm);
    }
    vkmd_uff_eval_close(&ev);
    free(text);
    free(sdf_text);
    vkmd_uff_molecule_array_free(recs, count);
    return exit_code;
}
