/* The MD benchmark's result file (sim/bench_md_file.h): two runs written
 * and read back (system names with a quote, atoms, time step, speed, the
 * dispatches and the lane pairs per pair within the cutoff, rebuilds, the
 * device's name); a run without its figures and a file of another suite
 * are refused. */
#include "sim/bench_md_file.h"
#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN VKMD_TEST_GEN_DIR "/sim_bench_md_file"

int main(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", GEN);
    CHECK(system(cmd) == 0);
    vkmd_vk_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "Test \"GPU\" 9000");
    d.vendor_name = "vendor";
    d.type_name = "cpu";
    vkmd_bench_md_result r[2];
    memset(r, 0, sizeof r);
    snprintf(r[0].system, sizeof r[0].system, "water:1000");
    snprintf(r[1].system, sizeof r[1].system, "dir/\"odd\".prmtop [split-int]");
    for (int i = 0; i < 2; ++i) {
        r[i].atoms = 3000 * (i + 1);
        r[i].dt_fs = 4 - 2 * i;
        r[i].steps = 100;
        r[i].ns_per_day = 12.5 / (i + 1);
        r[i].us_per_step = 80.25 * (i + 1);
        r[i].prof.dispatches_per_step = 9.9 + i;
        r[i].lane_pairs = 1000 * (i + 2);
        r[i].pairs_within_cutoff = i ? 0 : 500; /* 0: no ratio */
        r[i].rebuilds_per_100 = 5.5;
    }
    const char *path = GEN "/runs.json";
    CHECK_OK(vkmd_bench_md_write(path, &d, r, 2));
    vkmd_bench_md_file f;
    CHECK_OK(vkmd_bench_md_read(path, &f));
    printf("device '%s', %d runs\n", f.device, f.n);
    CHECK(!strcmp(f.device, d.name) && f.n == 2);
    for (int i = 0; i < f.n && i < 2; ++i) {
        const vkmd_bench_md_point *p = &f.p[i];
        printf("  %s: %d atoms, %g fs, %.3f ns/day, %.1f us/step, %.1f dispatches, lane ratio "
               "%.2f, %.1f rebuilds\n",
               p->system, p->atoms, p->dt, p->ns_day, p->us_step, p->dispatches, p->lane_ratio,
               p->rebuilds);
        CHECK(!strcmp(p->system, r[i].system) && p->atoms == r[i].atoms && p->dt == r[i].dt_fs);
        CHECK(fabs(p->ns_day - r[i].ns_per_day) < 1e-6 &&
              fabs(p->us_step - r[i].us_per_step) < 1e-3);
        CHECK(fabs(p->dispatches - r[i].prof.dispatches_per_step) < 1e-3);
        CHECK(fabs(p->lane_ratio - (i ? -1 : 4.0)) < 1e-9 && fabs(p->rebuilds - 5.5) < 1e-6);
    }

    /* A run without its speed, and a file of the forces suite. */
    FILE *o = fopen(GEN "/bad.json", "w");
    if (o) {
        fputs("{\n  \"benchmark\": \"md\",\n  \"device_name\": \"x\",\n  \"runs\": [\n"
              "    {\"system\": \"water:1\", \"atoms\": 3, \"dt_fs\": 2}\n  ]\n}\n",
              o);
        fclose(o);
    }
    CHECK(vkmd_bench_md_read(GEN "/bad.json", &f) == VKMD_ERROR_PARSE);
    printf("%s\n", vkmd_last_error());
    CHECK(strstr(vkmd_last_error(), "bad.json:5: a run without") != NULL);
    o = fopen(GEN "/forces.json", "w");
    if (o) {
        fputs("{\n  \"benchmark\": \"forces\",\n  \"device_name\": \"x\"\n}\n", o);
        fclose(o);
    }
    CHECK(vkmd_bench_md_read(GEN "/forces.json", &f) == VKMD_ERROR_PARSE);
    printf("%s\n", vkmd_last_error());
    CHECK(strstr(vkmd_last_error(), "not a result file") != NULL);
    return test_finish("test_sim_bench_md_file");
}
