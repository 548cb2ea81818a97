/* The SVG plot of `vkmd bench --compare` (see bench_md_file.h): ns/day
 * against atoms, log-log, a line per file (device) and time step, dashed
 * at 2 fs, the legend naming each device and commit. */
#include "sim/bench_md_file.h"

#include <math.h>
#include <stdio.h>

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

vkmd_result vkmd_bench_md_compare_svg(const char *path, const vkmd_bench_md_file *files, int count)
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
            int idx[VKMD_BENCH_MD_FILE_RUNS], m = 0;
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
