/* Energy CSV, progress reporter and drift fit for `vkmd run` (see
 * run_output.h). The progress bar pads each redraw with spaces to the length
 * of the previous one instead of using an erase-line escape, so it works on
 * any terminal that honours '\r'. */
#include "run_output.h"
#include "core/units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------ energy CSV */

struct run_csv {
    FILE *f;
    char *path;
};

static vkmd_result csv_io_error(const run_csv *c, const char *what)
{
    return vkmd_fail(VKMD_ERROR_IO, "%s: %s failed: %s", c->path, what,
                     errno ? strerror(errno) : "unknown error");
}

vkmd_result run_csv_create(const char *path, const run_csv_desc *d, run_csv **out_csv)
{
    *out_csv = NULL;
    if (!d->system || !d->system[0])
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: energy CSV needs a system name", path);
    run_csv *c = calloc(1, sizeof *c);
    size_t len = strlen(path) + 1;
    if (!c || !(c->path = malloc(len))) {
        free(c);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: energy CSV", path);
    }
    memcpy(c->path, path, len);
    c->f = fopen(path, d->append ? "a" : "w");
    if (!c->f) {
        vkmd_result res =
            vkmd_fail(VKMD_ERROR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
        free(c->path);
        free(c);
        return res;
    }
    struct stat st;
    int empty = !d->append || (fstat(fileno(c->f), &st) == 0 && st.st_size == 0);
    if (empty) {
        FILE *f = c->f;
        fprintf(f, "# vkmd run energies: system %s", d->system);
        if (d->atom_count > 0)
            fprintf(f, ", %d atoms", d->atom_count);
        if (d->dof > 0)
            fprintf(f, ", %lld degrees of freedom", (long long)d->dof);
        fprintf(f, "\n# integrator %s", d->integrator && d->integrator[0] ? d->integrator : "?");
        if (d->dt_fs > 0)
            fprintf(f, ", dt %g fs", d->dt_fs);
        if (d->temperature_k > 0)
            fprintf(f, ", T %g K", d->temperature_k);
        if (d->friction_per_ps > 0)
            fprintf(f, ", friction %g /ps", d->friction_per_ps);
        fputc('\n', f);
        if (d->settings && d->settings[0])
            fprintf(f, "# %s\n", d->settings);
        fprintf(f, "# units: time ps, energies kcal/mol, temperature K, speed simulated ns per "
                   "day of wall time (0 until measured)\n");
        fprintf(f, "%s\n", RUN_CSV_COLUMNS);
    }
    errno = 0;
    if (ferror(c->f) || fflush(c->f) != 0) {
        vkmd_result res = csv_io_error(c, "writing the header");
        run_csv_close(c);
        return res;
    }
    *out_csv = c;
    return VKMD_OK;
}

vkmd_result run_csv_write(run_csv *c, const run_energy_row *r)
{
    const double v[6] = {r->time_ps,        r->potential_kcal_mol, r->kinetic_kcal_mol,
                         r->total_kcal_mol, r->temperature_k,      r->ns_per_day};
    static const char *const names[6] = {"time_ps",        "potential_kcal_mol", "kinetic_kcal_mol",
                                         "total_kcal_mol", "temperature_K",      "ns_per_day"};
    for (int k = 0; k < 6; ++k)
        if (!isfinite(v[k]))
            return vkmd_fail(VKMD_ERROR_NUMERIC, "%s: step %lld: %s is %g; row not written",
                             c->path, (long long)r->step, names[k], v[k]);
    errno = 0;
    int n = fprintf(c->f, "%lld,%.6f,%.6f,%.6f,%.6f,%.4f,%.3f\n", (long long)r->step, v[0], v[1],
                    v[2], v[3], v[4], v[5]);
    if (n < 0 || fflush(c->f) != 0)
        return csv_io_error(c, "writing a row");
    return VKMD_OK;
}

vkmd_result run_csv_close(run_csv *c)
{
    if (!c)
        return VKMD_OK;
    vkmd_result res = VKMD_OK;
    errno = 0;
    int err = ferror(c->f);
    if (fclose(c->f) != 0 || err)
        res = csv_io_error(c, "closing");
    free(c->path);
    free(c);
    return res;
}

/* ------------------------------------------------------------ progress */

double run_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double run_ns_per_day(int64_t steps, double dt_fs, double wall_s)
{
    if (!(wall_s > 0))
        return 0;
    return (double)steps * dt_fs * 1e-6 * (86400.0 / wall_s);
}

void run_progress_init(run_progress *p, const run_progress_desc *desc, double now_s)
{
    memset(p, 0, sizeof *p);
    p->d = *desc;
    if (!p->d.out)
        p->d.out = stderr;
    if (!(p->d.min_interval_s > 0))
        p->d.min_interval_s = 0.2;
    if (p->d.mode == RUN_PROGRESS_BAR)
        p->bar = 1;
    else if (p->d.mode == RUN_PROGRESS_LINES)
        p->bar = 0;
    else
        p->bar = isatty(fileno(p->d.out)) ? 1 : 0;
    p->start_s = now_s;
    p->now_s = now_s;
    p->last_draw_s = -1;
    p->step = p->d.first_step;
}

static void format_duration(char *buf, size_t size, double s)
{
    if (!(s >= 0) || s > 1e8) {
        snprintf(buf, size, "--:--");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 86400)
        snprintf(buf, size, "%ldd%02ld:%02ld:%02ld", t / 86400, t / 3600 % 24, t / 60 % 60, t % 60);
    else
        snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

int run_progress_format(const run_progress *p, char *buf, size_t size)
{
    const int64_t total = p->d.last_step - p->d.first_step;
    const int64_t done = p->step - p->d.first_step;
    double frac = total > 0 ? (double)done / (double)total : 1.0;
    frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
    const int64_t left = p->d.last_step - p->step;

    /* Seconds left: from the reported speed, else from the wall time so far. */
    double eta = -1;
    if (left <= 0)
        eta = 0;
    else if (p->ns_per_day > 0 && p->d.dt_fs > 0)
        eta = (double)left * p->d.dt_fs * 1e-6 / p->ns_per_day * 86400.0;
    else if (done > 0 && p->now_s > p->start_s)
        eta = (p->now_s - p->start_s) / (double)done * (double)left;
    char eta_s[32];
    format_duration(eta_s, sizeof eta_s, eta);

    char speed[32] = "-- ns/day";
    if (p->ns_per_day > 0)
        snprintf(speed, sizeof speed, "%.1f ns/day", p->ns_per_day);
    char temp[32] = "T -- K";
    if (isfinite(p->temperature_k) && p->temperature_k > 0)
        snprintf(temp, sizeof temp, "T %.1f K", p->temperature_k);

    int n = 0;
    if (p->bar) {
        enum { WIDTH = 24 };
        char bar[WIDTH + 1];
        int filled = (int)(frac * WIDTH + 1e-9);
        for (int i = 0; i < WIDTH; ++i)
            bar[i] = i < filled ? '#' : '.';
        bar[WIDTH] = '\0';
        n = snprintf(buf, size, "[%s] %5.1f%%  step %lld/%lld  %s  %s  ETA %s", bar, 100 * frac,
                     (long long)p->step, (long long)p->d.last_step, speed, temp, eta_s);
    } else {
        n = snprintf(buf, size, "step %lld/%lld (%.1f%%)  %.3f ps  %s  %s  ETA %s",
                     (long long)p->step, (long long)p->d.last_step, 100 * frac,
                     (double)p->step * p->d.dt_fs / VKMD_FS_PER_PS, speed, temp, eta_s);
    }
    return n < 0 ? 0 : n >= (int)size ? (int)size - 1 : n;
}

static void draw(run_progress *p)
{
    char line[256];
    int n = run_progress_format(p, line, sizeof line);
    if (p->bar) {
        /* Blank what a longer previous line left behind. */
        int pad = p->drawn_len > n ? p->drawn_len - n : 0;
        fprintf(p->d.out, "\r%s%*s", line, pad, "");
        p->drawn_len = n;
        p->last_draw_s = p->now_s;
    } else {
        fprintf(p->d.out, "%s\n", line);
    }
    fflush(p->d.out);
    p->pending = 0;
}

void run_progress_update(run_progress *p, int64_t step, double ns_per_day, double temperature_k,
                         double now_s)
{
    p->step = step;
    p->ns_per_day = ns_per_day;
    p->temperature_k = temperature_k;
    p->now_s = now_s;
    p->pending = 1;
    if (p->bar && step < p->d.last_step && p->last_draw_s >= 0 &&
        now_s - p->last_draw_s < p->d.min_interval_s)
        return;
    draw(p);
}

void run_progress_finish(run_progress *p)
{
    if (p->pending)
        draw(p);
    if (p->bar && p->drawn_len > 0) {
        fputc('\n', p->d.out);
        fflush(p->d.out);
        p->drawn_len = 0;
    }
}

/* ------------------------------------------------------------ energy drift */

vkmd_result run_drift_fit(const double *t, const double *e, int32_t n, double temperature_k,
                          int64_t dof, run_drift *out)
{
    memset(out, 0, sizeof *out);
    if (n < 2)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "energy drift needs at least 2 samples, got %d", n);
    if (!(temperature_k > 0) || dof <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "energy drift per k_B T per degree of freedom needs T > 0 and dof > 0 "
                         "(got %g K, %lld)",
                         temperature_k, (long long)dof);
    double mt = 0, me = 0;
    for (int32_t i = 0; i < n; ++i) {
        if (!isfinite(t[i]) || !isfinite(e[i]))
            return vkmd_fail(VKMD_ERROR_NUMERIC,
                             "energy drift: sample %d is not finite (t %g, E %g)", i, t[i], e[i]);
        mt += t[i];
        me += e[i];
    }
    mt /= n;
    me /= n;
    double sxx = 0, sxy = 0;
    for (int32_t i = 0; i < n; ++i) {
        sxx += (t[i] - mt) * (t[i] - mt);
        sxy += (t[i] - mt) * (e[i] - me);
    }
    if (!(sxx > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "energy drift: all %d samples are at the same time %g ps", n, mt);
    const double b = sxy / sxx, a = me - b * mt;
    double ssr = 0;
    for (int32_t i = 0; i < n; ++i) {
        double r = e[i] - (a + b * t[i]);
        ssr += r * r;
    }
    out->samples = n;
    out->slope_kcal_mol_per_ns = b * 1000.0; /* per ps -> per ns */
    out->slope_stderr_kcal_mol_per_ns = n > 2 ? sqrt(ssr / (n - 2) / sxx) * 1000.0 : 0;
    out->intercept_kcal_mol = a;
    out->rms_residual_kcal_mol = sqrt(ssr / n);
    out->kt_per_ns_per_dof =
        out->slope_kcal_mol_per_ns / (VKMD_BOLTZMANN_KCAL * temperature_k) / (double)dof;
    return VKMD_OK;
}

/* ------------------------------------------------------------ restarts */

vkmd_result run_csv_truncate_after(const char *path, int64_t last_step)
{
    vkmd_result res = VKMD_OK;
    char tmp[4200], line[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *in = fopen(path, "r");
    if (!in)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open the energies to continue them: %s", path,
                         strerror(errno));
    FILE *out = fopen(tmp, "w");
    if (!out) {
        res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot create: %s", tmp, strerror(errno));
        fclose(in);
        return res;
    }
    int found = 0, lineno = 0;
    int64_t last_seen = -1;
    while (fgets(line, sizeof line, in)) {
        ++lineno;
        if (line[0] == '#' || !strncmp(line, "step,", 5)) {
            fputs(line, out);
            continue;
        }
        char *end = NULL;
        const long long step = strtoll(line, &end, 10);
        if (end == line || *end != ',') {
            res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: not an energy row: '%.40s'", path, lineno,
                            line);
            break;
        }
        if (step > last_step)
            break; /* rows written after the checkpoint: dropped */
        last_seen = step;
        found |= step == last_step;
        fputs(line, out);
    }
    fclose(in);
    if (res == VKMD_OK && !found)
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: ends at step %lld, before the checkpoint's step %lld: the energies "
                        "of the steps between are lost",
                        path, (long long)last_seen, (long long)last_step);
    if (ferror(out) || fclose(out) != 0) {
        if (res == VKMD_OK)
            res = vkmd_fail(VKMD_ERROR_IO, "%s: write failed: %s", tmp, strerror(errno));
    }
    if (res == VKMD_OK && rename(tmp, path) != 0)
        res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot replace it: %s", path, strerror(errno));
    if (res != VKMD_OK)
        remove(tmp);
    return res;
}
