/* The MD benchmark's result file (see bench_md_file.h). */
#include "sim/bench_md_file.h"
#include "core/json_write.h"
#include "forces/positions.h"
#include "vk/device_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const pass_keys[VKMD_MD_PASS_COUNT] = {
    "neighbor",   "nonbonded", "bonded",      "pme_spread", "pme_fft", "pme_convolve",
    "pme_gather", "integrate", "constraints", "reductions", "step",    "forces"};

const char *vkmd_bench_md_pass_key(int pass)
{
    return pass >= 0 && pass < VKMD_MD_PASS_COUNT ? pass_keys[pass] : "?";
}

static void host_cpu(char *out, size_t size)
{
    snprintf(out, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    int cores = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10)) {
            ++cores;
            if (cores == 1) {
                const char *c = strchr(line, ':');
                snprintf(out, size, "%.200s", c ? c + 2 : line);
                out[strcspn(out, "\n")] = 0;
            }
        }
    }
    fclose(f);
    if (cores > 0) {
        const size_t len = strlen(out);
        snprintf(out + len, size - len, " (%d logical cores)", cores);
    }
}

vkmd_result vkmd_bench_md_write(const char *path, const vkmd_vk_device_info *d,
                                const vkmd_bench_md_result *r, int n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open for writing", path);
    char cpu[256], date[64];
    host_cpu(cpu, sizeof cpu);
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    /* One key per line for the device and one line per run: bench --compare
     * reads these files line by line. */
    fprintf(f, "{\n  \"benchmark\": \"md\",\n  \"vkmd_version\": \"%s\",\n  \"commit\": \"%s\",\n",
            VKMD_VERSION, VKMD_GIT_COMMIT);
    fprintf(f, "  \"date\": \"%s\",\n  \"host_cpu\": ", date);
    vkmd_json_write_string(f, cpu);
    fprintf(f, ",\n  \"device_name\": ");
    vkmd_json_write_string(f, d->name);
    fprintf(f, ",\n  \"device\": ");
    vkmd_vk_device_write_json(f, d);
    fprintf(f, ",\n");
    fprintf(f,
            "  \"settings\": {\"method\": \"PME\", \"cutoff_A\": 9, \"ewald_tolerance\": "
            "0.0005, \"constraints\": \"hbonds\", \"rigid_water\": true, \"integrator\": "
            "\"langevin-middle\", \"temperature_K\": 300, \"friction_per_ps\": 1, "
            "\"minimize_iterations\": 50, \"warmup_steps\": 100, \"profiled_steps\": %d},\n",
            VKMD_BENCH_MD_PROFILE_STEPS);
    fprintf(f, "  \"runs\": [\n");
    for (int i = 0; i < n; ++i) {
        fprintf(f, "    {\"system\": ");
        vkmd_json_write_string(f, r[i].system);
        fprintf(f, ", \"lj_precision\": \"%s\", \"lj_fp16_min_r_a\": %g",
                r[i].lj == VKMD_LJ_FP16_POWERS ? "fp16-powers"
                : r[i].lj                      ? "fp16"
                                               : "fp32",
                r[i].lj_min_r);
        fprintf(f, ", \"positions\": \"%s\"", vkmd_positions_mode_name(r[i].positions));
        fprintf(f,
                ", \"atoms\": %d, \"dt_fs\": %g, \"hmr_amu\": %g, \"steps\": %d, \"wall_s\": "
                "%.6f, \"ns_per_day\": %.6f, \"us_per_step\": %.3f, \"gpu_us_per_step\": %.3f, "
                "\"dispatches_per_step\": %.3f, \"barriers_per_step\": %.3f, "
                "\"submits_per_step\": %.5f, \"steps_per_command_buffer\": %d, ",
                r[i].atoms, r[i].dt_fs, r[i].hmr_amu, r[i].steps, r[i].wall_s, r[i].ns_per_day,
                r[i].us_per_step, r[i].prof.step_ns * 1e-3, r[i].prof.dispatches_per_step,
                r[i].prof.barriers_per_step, r[i].submits_per_step, r[i].prof.batch_steps);
        fprintf(f,
                "\"lane_pairs_per_step\": %.0f, \"pairs_within_cutoff\": %.0f, "
                "\"inner_tiles\": %u, \"outer_tiles\": %u, \"list_rebuilds_per_100_steps\": %.3f, "
                "\"list_prunes_per_100_steps\": %.3f, \"repeated_steps_per_100_steps\": %.3f, "
                "\"halts_per_100_steps\": %.3f, \"gated_batches\": %s, "
                "\"rebuild_extra_dispatches\": %.1f, "
                "\"fused_step\": %s, \"skin_A\": %g, \"outer_skin_A\": %g, ",
                r[i].lane_pairs, r[i].pairs_within_cutoff, r[i].inner_tiles, r[i].outer_tiles,
                r[i].rebuilds_per_100, r[i].prunes_per_100, r[i].repeats_per_100,
                r[i].halts_per_100, r[i].prof.gated ? "true" : "false",
                r[i].prof.rebuild_dispatches, r[i].fused ? "true" : "false", r[i].skin_a,
                r[i].outer_skin_a);
        fprintf(f, "\"step_reason\": ");
        vkmd_json_write_string(f, r[i].step_reason);
        fprintf(f, ", \"passes_us_per_step\": {");
        for (int p = 0; p < VKMD_MD_PASS_COUNT; ++p)
            fprintf(f, "%s\"%s\": %.3f", p ? ", " : "", vkmd_bench_md_pass_key(p),
                    r[i].prof.pass_ns[p] * 1e-3);
        fprintf(f, "}}%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return vkmd_fail(VKMD_ERROR_IO, "%s: write failed", path);
    return VKMD_OK;
}

/* The string value of "key" in `line`, or 0. */
static int str_value(const char *line, const char *key, char *out, size_t size)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *s = strstr(line, pat);
    if (!s)
        return 0;
    s += strlen(pat);
    size_t k = 0;
    for (; *s && *s != '"' && k + 1 < size; ++s) {
        if (*s == '\\' && s[1])
            ++s;
        out[k++] = *s;
    }
    out[k] = 0;
    return 1;
}

static int num_value(const char *line, const char *key, double *out)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *s = strstr(line, pat);
    return s && sscanf(s + strlen(pat), "%lf", out) == 1;
}

vkmd_result vkmd_bench_md_read(const char *path, vkmd_bench_md_file *f)
{
    memset(f, 0, sizeof *f);
    FILE *in = fopen(path, "r");
    if (!in)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open", path);
    char line[4096];
    int lineno = 0, md = 0;
    vkmd_result res = VKMD_OK;
    while (fgets(line, sizeof line, in) && res == VKMD_OK) {
        ++lineno;
        char v[64];
        if (str_value(line, "benchmark", v, sizeof v))
            md = !strcmp(v, "md");
        if (strstr(line, "\"device_name\""))
            str_value(line, "device_name", f->device, sizeof f->device);
        if (strstr(line, "\"commit\"") && !f->commit[0])
            str_value(line, "commit", f->commit, sizeof f->commit);
        if (strstr(line, "{\"system\"")) {
            if (f->n >= VKMD_BENCH_MD_FILE_RUNS) {
                res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: more than %d runs", path, lineno,
                                VKMD_BENCH_MD_FILE_RUNS);
                break;
            }
            vkmd_bench_md_point *p = &f->p[f->n];
            double atoms = 0;
            if (!str_value(line, "system", p->system, sizeof p->system) ||
                !num_value(line, "atoms", &atoms) || !num_value(line, "dt_fs", &p->dt) ||
                !num_value(line, "ns_per_day", &p->ns_day) ||
                !num_value(line, "us_per_step", &p->us_step) || !(p->ns_day > 0) || !(atoms > 0)) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: a run without system, atoms, dt_fs, ns_per_day and "
                                "us_per_step",
                                path, lineno);
                break;
            }
            p->atoms = (int)atoms;
            double lanes = 0, within = 0;
            if (!num_value(line, "dispatches_per_step", &p->dispatches))
                p->dispatches = -1;
            p->lane_ratio = num_value(line, "lane_pairs_per_step", &lanes) &&
                                    num_value(line, "pairs_within_cutoff", &within) && within > 0
                                ? lanes / within
                                : -1;
            if (!num_value(line, "list_rebuilds_per_100_steps", &p->rebuilds))
                p->rebuilds = -1;
            ++f->n;
        }
    }
    fclose(in);
    if (res == VKMD_OK && (!md || !f->device[0] || f->n == 0))
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: not a result file of `vkmd bench --json` (MD suite): no %s", path,
                        !md             ? "\"benchmark\": \"md\""
                        : !f->device[0] ? "device_name"
                                        : "runs");
    return res;
}

/* The run of `system` at `dt` among the first `limit` runs of f, or NULL. */
static const vkmd_bench_md_point *find_run(const vkmd_bench_md_file *f, int limit,
                                           const vkmd_bench_md_point *like)
{
    for (int q = 0; q < limit; ++q)
        if (!strcmp(f->p[q].system, like->system) && f->p[q].dt == like->dt)
            return &f->p[q];
    return NULL;
}

void vkmd_bench_md_compare_write(FILE *out, const vkmd_bench_md_file *files, int count)
{
    fprintf(out, "| system | atoms | dt (fs) |");
    for (int i = 0; i < count; ++i)
        fprintf(out,
                " %s (%s): ns/day, us/step, dispatches/step, lane pairs per pair within the "
                "cutoff, list rebuilds per 100 steps |",
                files[i].device, files[i].commit);
    fprintf(out, "\n|---|---|---|");
    for (int i = 0; i < count; ++i)
        fprintf(out, "---|");
    fprintf(out, "\n");
    /* Rows: every (system, dt) in order of first appearance. */
    for (int i = 0; i < count; ++i)
        for (int k = 0; k < files[i].n; ++k) {
            const vkmd_bench_md_point *p = &files[i].p[k];
            int seen = find_run(&files[i], k, p) != NULL;
            for (int j = 0; j < i && !seen; ++j)
                seen = find_run(&files[j], files[j].n, p) != NULL;
            if (seen)
                continue;
            fprintf(out, "| %s | %d | %g |", p->system, p->atoms, p->dt);
            for (int j = 0; j < count; ++j) {
                const vkmd_bench_md_point *hit = find_run(&files[j], files[j].n, p);
                if (hit) {
                    fprintf(out, " %.3f, %.1f", hit->ns_day, hit->us_step);
                    const double extra[3] = {hit->dispatches, hit->lane_ratio, hit->rebuilds};
                    for (int e = 0; e < 3; ++e)
                        fprintf(out, extra[e] < 0 ? ", -" : ", %.*f", e == 1 ? 2 : 1, extra[e]);
                    fprintf(out, " |");
                } else
                    fprintf(out, " - |");
            }
            fprintf(out, "\n");
        }
}
