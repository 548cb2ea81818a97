/* The ensemble's logs, demultiplexed trajectories and summary (see
 * remd_files.h). */
#include "run/remd_files.h"

#include "io/dcd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Keeps the column line and the rows of `path` whose step (first field) is
 * at most max_step (rewritten through path.tmp), then opens it to append. */
static vkmd_result log_open(const char *path, const char *header, int restart, int64_t max_step,
                            FILE **out)
{
    if (restart) {
        FILE *in = fopen(path, "r");
        if (!in)
            return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open to continue it: %s", path,
                             strerror(errno));
        char tmp[4300];
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        FILE *o = fopen(tmp, "w");
        if (!o) {
            fclose(in);
            return vkmd_fail(VKMD_ERROR_IO, "%s: cannot create: %s", tmp, strerror(errno));
        }
        char line[8192];
        int first = 1;
        while (fgets(line, sizeof line, in)) {
            if (first || strtoll(line, NULL, 10) <= max_step)
                fputs(line, o);
            first = 0;
        }
        fclose(in);
        if (fclose(o) != 0 || rename(tmp, path) != 0)
            return vkmd_fail(VKMD_ERROR_IO, "%s: cannot rewrite: %s", path, strerror(errno));
        *out = fopen(path, "a");
    } else {
        *out = fopen(path, "w");
        if (*out)
            fprintf(*out, "%s\n", header);
    }
    if (!*out)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
    return VKMD_OK;
}

vkmd_result vkmd_remd_logs_open(vkmd_remd_logs *logs, const char *dir, int32_t replica_count,
                                int exchange, int restart, int64_t max_step)
{
    memset(logs, 0, sizeof *logs);
    logs->replica_count = replica_count;
    char path[4200], header[8192];
    int n = snprintf(header, sizeof header, "step,time_ps");
    for (int r = 0; r < replica_count && n < (int)sizeof header; ++r)
        n += snprintf(header + n, sizeof header - n, ",t_index_%d", r);
    for (int r = 0; r < replica_count && n < (int)sizeof header; ++r)
        n += snprintf(header + n, sizeof header - n, ",potential_%d_kcal_mol", r);
    snprintf(path, sizeof path, "%s/replicas.csv", dir);
    vkmd_result res = log_open(path, header, restart, max_step, &logs->replicas);
    if (res == VKMD_OK && exchange) {
        snprintf(path, sizeof path, "%s/exchange.csv", dir);
        res = log_open(path,
                       "step,pair,t_lo_k,t_hi_k,replica_lo,replica_hi,potential_lo_kcal_mol,"
                       "potential_hi_kcal_mol,probability,accepted",
                       restart, max_step, &logs->exchange);
    }
    if (res != VKMD_OK)
        vkmd_remd_logs_close(logs);
    return res;
}

void vkmd_remd_logs_round(vkmd_remd_logs *logs, int64_t step, double time_ps,
                          const int32_t *t_index, const double *potential)
{
    if (!logs->replicas)
        return;
    fprintf(logs->replicas, "%lld,%.6f", (long long)step, time_ps);
    for (int r = 0; r < logs->replica_count; ++r)
        fprintf(logs->replicas, ",%d", t_index[r]);
    for (int r = 0; r < logs->replica_count; ++r)
        fprintf(logs->replicas, ",%.10g", potential[r]);
    fputc('\n', logs->replicas);
}

void vkmd_remd_logs_pairs(vkmd_remd_logs *logs, int64_t step, const vkmd_remd *remd,
                          const vkmd_remd_pair *pairs, int32_t count, const double *potential)
{
    for (int32_t k = 0; k < count && logs->exchange; ++k) {
        const vkmd_remd_pair *p = &pairs[k];
        fprintf(logs->exchange, "%lld,%d,%.6f,%.6f,%d,%d,%.10g,%.10g,%.6f,%d\n", (long long)step,
                p->pair, remd->temperature_k[p->pair], remd->temperature_k[p->pair + 1],
                p->replica_lo, p->replica_hi, potential[p->replica_lo], potential[p->replica_hi],
                p->probability, p->accepted);
    }
}

vkmd_result vkmd_remd_logs_flush(vkmd_remd_logs *logs)
{
    if ((logs->replicas && fflush(logs->replicas) != 0) ||
        (logs->exchange && fflush(logs->exchange) != 0))
        return vkmd_fail(VKMD_ERROR_IO, "the ensemble's logs: write failed: %s", strerror(errno));
    return VKMD_OK;
}

void vkmd_remd_logs_close(vkmd_remd_logs *logs)
{
    if (logs->replicas)
        fclose(logs->replicas);
    if (logs->exchange)
        fclose(logs->exchange);
    memset(logs, 0, sizeof *logs);
}

/* replicas.csv's steps and temperature indices ([rows][n]), malloc'd. */
static vkmd_result read_indices(const char *path, int32_t n, int64_t **out_steps, int32_t **out_idx,
                                int64_t *out_rows)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
    int64_t cap = 1024, rows = 0, *steps = malloc(sizeof *steps * cap);
    int32_t *idx = malloc(sizeof *idx * cap * n);
    char line[8192];
    int ok = steps && idx && fgets(line, sizeof line, f) != NULL; /* the column line */
    while (ok && fgets(line, sizeof line, f)) {
        if (rows == cap) {
            cap *= 2;
            int64_t *s2 = realloc(steps, sizeof *s2 * cap);
            int32_t *i2 = realloc(idx, sizeof *i2 * cap * n);
            steps = s2 ? s2 : steps;
            idx = i2 ? i2 : idx;
            if (!s2 || !i2)
                ok = 0;
        }
        if (!ok)
            break;
        char *p = line;
        steps[rows] = strtoll(p, &p, 10);
        strtod(p + 1, &p); /* time */
        for (int r = 0; r < n; ++r)
            idx[rows * n + r] = (int32_t)strtol(p + 1, &p, 10);
        ++rows;
    }
    fclose(f);
    if (!steps || !idx) {
        free(steps);
        free(idx);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: %lld rows", path, (long long)rows);
    }
    *out_steps = steps;
    *out_idx = idx;
    *out_rows = rows;
    return VKMD_OK;
}

vkmd_result vkmd_remd_demux(const char *dir, int32_t replica_count, const vkmd_system *sys,
                            double dt_fs, int64_t traj_every)
{
    vkmd_result res = VKMD_OK;
    const int32_t n = replica_count;
    if (n < 1 || n > VKMD_REMD_MAX_REPLICAS || traj_every <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "demux: %d replicas, frames every %lld", n,
                         (long long)traj_every);
    char path[4300];
    snprintf(path, sizeof path, "%s/replicas.csv", dir);
    int64_t *steps = NULL, rows = 0;
    int32_t *idx = NULL;
    VKMD_TRY_RETURN(read_indices(path, n, &steps, &idx, &rows));
    vkmd_dcd_reader *in[VKMD_REMD_MAX_REPLICAS] = {0};
    vkmd_dcd_writer *out[VKMD_REMD_MAX_REPLICAS] = {0};
    double *xyz = malloc(sizeof *xyz * 3 * (size_t)sys->atom_count);
    if (!xyz) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "demux: out of memory");
        goto cleanup;
    }
    const vkmd_dcd_desc wd = {.atom_count = sys->atom_count,
                              .dt_fs = dt_fs,
                              .steps_per_frame = (int32_t)traj_every,
                              .first_step = traj_every,
                              .periodic = sys->box.periodic};
    int32_t frames = -1;
    for (int r = 0; r < n; ++r) {
        snprintf(path, sizeof path, "%s/replica_%d/traj.dcd", dir, r);
        VKMD_TRY(vkmd_dcd_reader_open(path, &in[r]));
        const int32_t fc = vkmd_dcd_reader_info(in[r])->frame_count;
        frames = frames < 0 || fc < frames ? fc : frames;
        snprintf(path, sizeof path, "%s/temperature_%d.dcd", dir, r);
        VKMD_TRY(vkmd_dcd_writer_create(path, &wd, &out[r]));
    }
    int64_t row = 0;
    for (int32_t k = 0; k < frames; ++k) {
        const int64_t step = (int64_t)(k + 1) * traj_every;
        while (row < rows && steps[row] < step)
            ++row;
        if (row >= rows)
            break; /* after the last round: no index recorded */
        for (int r = 0; r < n; ++r) {
            vkmd_box box = sys->box;
            VKMD_TRY(vkmd_dcd_reader_frame(in[r], k, xyz, &box));
            VKMD_TRY(vkmd_dcd_writer_append(out[idx[row * n + r]], xyz, &box));
        }
    }
cleanup:
    for (int r = 0; r < n; ++r) {
        vkmd_dcd_reader_close(in[r]);
        if (out[r]) {
            const vkmd_result c = vkmd_dcd_writer_close(out[r]);
            if (res == VKMD_OK)
                res = c;
        }
    }
    free(steps);
    free(idx);
    free(xyz);
    return res;
}

static double acceptance(const vkmd_remd *remd, int i)
{
    return remd->pair_tries[i] ? (double)remd->pair_accepted[i] / remd->pair_tries[i] : 0.0;
}

void vkmd_ensemble_summary_write(FILE *out, int json, const vkmd_ensemble_replica *rep, int32_t n,
                                 int64_t steps, int64_t exchange_every, const vkmd_remd *remd,
                                 const char *out_dir)
{
    double total = 0, wall = 0;
    for (int r = 0; r < n; ++r) {
        total += rep[r].ns_per_day;
        wall = rep[r].wall_s > wall ? rep[r].wall_s : wall;
    }
    if (!json) {
        fprintf(out,
                "vkmd-mpi ensemble: %d replicas on %d ranks, %lld steps each, %.1f s (slowest "
                "rank); %.3f ns/day in all (%.3f per replica)\n",
                n, n, (long long)steps, wall, total, total / n);
        for (int r = 0; r < n; ++r) {
            fprintf(out,
                    "  replica %d: %.3f ns/day, T %.2f +- %.2f K, final potential %.4f kcal/mol", r,
                    rep[r].ns_per_day, rep[r].mean_temperature_k, rep[r].sd_temperature_k,
                    rep[r].final_potential_kcal_mol);
            if (remd)
                fprintf(out, ", now at %.2f K", vkmd_remd_temperature_of(remd, r));
            fputc('\n', out);
        }
        for (int i = 0; remd && i + 1 < n; ++i)
            fprintf(out, "  pair %d (%.2f K <-> %.2f K): %lld of %lld swaps accepted (%.3f)\n", i,
                    remd->temperature_k[i], remd->temperature_k[i + 1],
                    (long long)remd->pair_accepted[i], (long long)remd->pair_tries[i],
                    acceptance(remd, i));
        fprintf(out, "  outputs in %s/\n", out_dir);
        return;
    }
    fprintf(out, "{\"replicas\": %d, \"ranks\": %d, \"steps\": %lld, \"exchange_every\": %lld, ", n,
            n, (long long)steps, (long long)exchange_every);
    fprintf(out, "\"wall_s\": %.3f, \"ns_per_day_total\": %.4f, \"replica\": [", wall, total);
    for (int r = 0; r < n; ++r) {
        fprintf(out,
                "%s{\"index\": %d, \"ns_per_day\": %.4f, \"mean_temperature_k\": %.4f, "
                "\"sd_temperature_k\": %.4f, \"final_potential_kcal_mol\": %.6f",
                r ? ", " : "", r, rep[r].ns_per_day, rep[r].mean_temperature_k,
                rep[r].sd_temperature_k, rep[r].final_potential_kcal_mol);
        if (remd)
            fprintf(out, ", \"final_t_index\": %d, \"final_temperature_k\": %.6f",
                    remd->temp_index[r], vkmd_remd_temperature_of(remd, r));
        fputc('}', out);
    }
    fprintf(out, "]");
    if (remd) {
        fprintf(out, ", \"ladder_k\": [");
        for (int i = 0; i < n; ++i)
            fprintf(out, "%s%.6f", i ? ", " : "", remd->temperature_k[i]);
        fprintf(out, "], \"exchange_attempts\": %lld, \"pairs\": [", (long long)remd->attempt);
        for (int i = 0; i + 1 < n; ++i)
            fprintf(out,
                    "%s{\"t_lo_k\": %.6f, \"t_hi_k\": %.6f, \"tries\": %lld, \"accepted\": %lld, "
                    "\"acceptance\": %.6f}",
                    i ? ", " : "", remd->temperature_k[i], remd->temperature_k[i + 1],
                    (long long)remd->pair_tries[i], (long long)remd->pair_accepted[i],
                    acceptance(remd, i));
        fprintf(out, "]");
    }
    fprintf(out, "}\n");
}
