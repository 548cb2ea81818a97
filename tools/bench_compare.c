/* vkmd bench --compare: one markdown table (ns/day, us/step, dispatches per
 * step, lane pairs per pair within the cutoff, list rebuilds per 100 steps;
 * "-" where an older file lacks a figure) and an SVG plot from result
 * files of `vkmd bench --json` (the MD suite). The files are read line by
 * line as bench_md.c writes them: "device_name" on its own line, one run per
 * line. */
#include "cmd_bench.h"
#include "commands.h"
#include "core/result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES  16
#define MAX_POINTS 64

typedef struct point {
    char system[128];
    int atoms;
    double dt, ns_day, us_step;
    double dispatches, lane_ratio, rebuilds; /* < 0: not in the file (older results) */
} point;

typedef struct series_file {
    char device[160];
    char commit[48];
    point p[MAX_POINTS];
    int n;
} series_file;

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

static vkmd_result read_file(const char *path, series_file *f)
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
            if (f->n >= MAX_POINTS) {
                res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: more than %d runs", path, lineno,
                                MAX_POINTS);
                break;
            }
            point *p = &f->p[f->n];
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

static void svg_text(FILE *f, const char *s)
{
    for (; *s; ++s) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

static vkmd_result write_svg(const char *path, const series_file *files, int count)
{
    const double W = 760, H = 480, L = 80, R = 230, T = 40, B = 60;
    double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
    for (int i = 0; i < count; ++i)
        for (int k = 0; k < files[i].n; ++k) {
            xmin = fmin(xmin, files[i].p[k].atoms);
            xmax = fmax(xmax, files[i].p[k].atoms);
            ymin = fmin(ymin, files[i].p[k].ns_day);
            ymax = fmax(ymax, files[i].p[k].ns_day);
        }
    const double lx0 = floor(log10(xmin)), lx1 = fmax(ceil(log10(xmax)), lx0 + 1);
    const double ly0 = floor(log10(ymin)), ly1 = fmax(ceil(log10(ymax)), ly0 + 1);
#define PX(a) (L + (log10(a) - lx0) / (lx1 - lx0) * (W - L - R))
#define PY(v) (H - B - (log10(v) - ly0) / (ly1 - ly0) * (H - T - B))
    FILE *f = fopen(path, "w");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open for writing", path);
    static const char *colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                   "#9467bd", "#8c564b", "#e377c2", "#17becf"};
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
            "viewBox=\"0 0 %g %g\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"%g\" y=\"22\" font-size=\"15\">vkmd bench: simulated ns/day against "
            "system size</text>\n",
            W, H, W, H, L);
    /* Axes, decade grid lines and labels. */
    fprintf(f, "<g stroke=\"#ccc\" stroke-width=\"1\">\n");
    for (double e = lx0; e <= lx1 + 1e-9; ++e)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\"/>\n", PX(pow(10, e)), T,
                PX(pow(10, e)), H - B);
    for (double e = ly0; e <= ly1 + 1e-9; ++e)
        fprintf(f, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\"/>\n", L, PY(pow(10, e)),
                W - R, PY(pow(10, e)));
    fprintf(f,
            "</g>\n<g stroke=\"black\"><line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\"/>"
            "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\"/></g>\n",
            L, H - B, W - R, H - B, L, T, L, H - B);
    for (double e = lx0; e <= lx1 + 1e-9; ++e)
        fprintf(f, "<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%g</text>\n", PX(pow(10, e)),
                H - B + 18, pow(10, e));
    for (double e = ly0; e <= ly1 + 1e-9; ++e)
        fprintf(f, "<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6,
                PY(pow(10, e)) + 4, pow(10, e));
    fprintf(f,
            "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">atoms (log scale)</text>\n"
            "<text transform=\"translate(%g %g) rotate(-90)\" text-anchor=\"middle\">ns/day "
            "(log scale)</text>\n",
            (L + W - R) / 2, H - 18, 22.0, (T + H - B) / 2);
    /* One line per device and time step. */
    int series = 0;
    for (int i = 0; i < count; ++i) {
        const double dts[2] = {4, 2};
        for (int d = 0; d < 2; ++d) {
            int idx[MAX_POINTS], m = 0;
            for (int k = 0; k < files[i].n; ++k)
                if (files[i].p[k].dt == dts[d])
                    idx[m++] = k;
            if (m == 0)
                continue;
            for (int a = 1; a < m; ++a) /* by atoms */
                for (int b = a; b > 0 && files[i].p[idx[b]].atoms < files[i].p[idx[b - 1]].atoms;
                     --b) {
                    const int t = idx[b];
                    idx[b] = idx[b - 1];
                    idx[b - 1] = t;
                }
            const char *c = colors[series % 8];
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", c,
                    dts[d] == 2 ? " stroke-dasharray=\"6 4\"" : "");
            for (int a = 0; a < m; ++a)
                fprintf(f, "%.1f,%.1f ", PX(files[i].p[idx[a]].atoms),
                        PY(files[i].p[idx[a]].ns_day));
            fprintf(f, "\"/>\n");
            for (int a = 0; a < m; ++a)
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n",
                        PX(files[i].p[idx[a]].atoms), PY(files[i].p[idx[a]].ns_day), c);
            const double ly = T + 10 + 36 * series;
            fprintf(f,
                    "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" "
                    "stroke-width=\"2\"%s/>\n<text x=\"%g\" y=\"%g\">",
                    W - R + 12, ly, W - R + 40, ly, c,
                    dts[d] == 2 ? " stroke-dasharray=\"6 4\"" : "", W - R + 46, ly + 4);
            char label[64];
            snprintf(label, sizeof label, "%.30s", files[i].device);
            svg_text(f, label);
            fprintf(f, "</text>\n<text x=\"%g\" y=\"%g\" fill=\"#555\">%g fs%s, %s</text>\n",
                    W - R + 46, ly + 18, dts[d], dts[d] > 3 ? " (HMR)" : "", files[i].commit);
            ++series;
        }
    }
    fprintf(f, "</svg>\n");
#undef PX
#undef PY
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return vkmd_fail(VKMD_ERROR_IO, "%s: write failed", path);
    return VKMD_OK;
}

int bench_compare_main(char **paths, int count, const char *svg)
{
    if (count < 1 || count > MAX_FILES) {
        fprintf(stderr, "vkmd bench --compare: give 1 to %d result files\n", MAX_FILES);
        return 2;
    }
    series_file *files = calloc((size_t)count, sizeof *files);
    if (!files)
        return tool_error("bench", vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench: out of memory"));
    vkmd_result res = VKMD_OK;
    for (int i = 0; i < count && res == VKMD_OK; ++i)
        res = read_file(paths[i], &files[i]);
    if (res == VKMD_OK) {
        /* Rows: every (system, dt) in order of first appearance. */
        printf("| system | atoms | dt (fs) |");
        for (int i = 0; i < count; ++i)
            printf(" %s (%s): ns/day, us/step, dispatches/step, lane pairs per pair within the "
                   "cutoff, list rebuilds per 100 steps |",
                   files[i].device, files[i].commit);
        printf("\n|---|---|---|");
        for (int i = 0; i < count; ++i)
            printf("---|");
        printf("\n");
        for (int i = 0; i < count; ++i)
            for (int k = 0; k < files[i].n; ++k) {
                const point *p = &files[i].p[k];
                int seen = 0;
                for (int j = 0; j <= i && !seen; ++j)
                    for (int q = 0; q < (j < i ? files[j].n : k) && !seen; ++q)
                        seen =
                            !strcmp(files[j].p[q].system, p->system) && files[j].p[q].dt == p->dt;
                if (seen)
                    continue;
                printf("| %s | %d | %g |", p->system, p->atoms, p->dt);
                for (int j = 0; j < count; ++j) {
                    const point *hit = NULL;
                    for (int q = 0; q < files[j].n && !hit; ++q)
                        if (!strcmp(files[j].p[q].system, p->system) && files[j].p[q].dt == p->dt)
                            hit = &files[j].p[q];
                    if (hit) {
                        printf(" %.3f, %.1f", hit->ns_day, hit->us_step);
                        const double extra[3] = {hit->dispatches, hit->lane_ratio, hit->rebuilds};
                        for (int e = 0; e < 3; ++e)
                            printf(extra[e] < 0 ? ", -" : ", %.*f", e == 1 ? 2 : 1, extra[e]);
                        printf(" |");
                    } else
                        printf(" - |");
                }
                printf("\n");
            }
        res = write_svg(svg, files, count);
        if (res == VKMD_OK)
            fprintf(stderr, "vkmd bench --compare: plot written to %s\n", svg);
    }
    free(files);
    return res == VKMD_OK ? 0 : tool_error("bench", res);
}
