/* The markdown comparison of MD benchmark result files
 * (vkmd_bench_md_compare_write): one row per (system, time step) in order
 * of first appearance across the files, each file's figures in its column,
 * "-" for a run a file lacks and for a figure an older file lacks. */
#include "sim/bench_md_file.h"
#include "testlib.h"

#include <stdio.h>
#include <string.h>

static void point(vkmd_bench_md_point *p, const char *system, double dt, double ns_day)
{
    memset(p, 0, sizeof *p);
    snprintf(p->system, sizeof p->system, "%s", system);
    p->atoms = 3000;
    p->dt = dt;
    p->ns_day = ns_day;
    p->us_step = 10;
    p->dispatches = 12;
    p->lane_ratio = 2.5;
    p->rebuilds = -1; /* an older file */
}

int main(void)
{
    static vkmd_bench_md_file f[2];
    snprintf(f[0].device, sizeof f[0].device, "A");
    snprintf(f[0].commit, sizeof f[0].commit, "c0");
    snprintf(f[1].device, sizeof f[1].device, "B");
    snprintf(f[1].commit, sizeof f[1].commit, "c1");
    point(&f[0].p[0], "water:1000", 4, 100);
    point(&f[0].p[1], "water:1000", 2, 50);
    f[0].n = 2;
    point(&f[1].p[0], "water:1000", 2, 60);
    point(&f[1].p[1], "water:8000", 4, 20);
    f[1].n = 2;

    char text[4096] = {0};
    FILE *out = tmpfile();
    CHECK(out != NULL);
    vkmd_bench_md_compare_write(out, f, 2);
    rewind(out);
    const size_t len = fread(text, 1, sizeof text - 1, out);
    fclose(out);
    text[len] = 0;
    printf("%s", text);
    CHECK(strstr(text, "| system | atoms | dt (fs) | A (c0): ns/day") == text);
    CHECK(strstr(text, "| B (c1): ns/day") != NULL);
    CHECK(strstr(text, "\n|---|---|---|---|---|\n") != NULL);
    const char *rows = strstr(text, "---|\n") + 5;
    CHECK(!strcmp(rows, "| water:1000 | 3000 | 4 | 100.000, 10.0, 12.0, 2.50, - | - |\n"
                        "| water:1000 | 3000 | 2 | 50.000, 10.0, 12.0, 2.50, - |"
                        " 60.000, 10.0, 12.0, 2.50, - |\n"
                        "| water:8000 | 3000 | 4 | - | 20.000, 10.0, 12.0, 2.50, - |\n"));
    return test_finish("sim_bench_md_compare");
}
