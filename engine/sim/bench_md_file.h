/* The MD benchmark's result file (`vkmd bench --json FILE`), written from
 * the runs of sim/bench_md.h and read back by `vkmd bench --compare`: JSON
 * with the device's name on its own line ("device_name") and one line per
 * run, which is how the reader takes it (line by line, not a general JSON
 * parser). Keys carry their units. */
#ifndef VKMD_SIM_BENCH_MD_FILE_H
#define VKMD_SIM_BENCH_MD_FILE_H

#include "sim/bench_md.h"

#include <stdio.h>

#define VKMD_BENCH_MD_FILE_RUNS 64 /* runs a file may hold for the reader */

/* The key of MD pass `pass` (VKMD_MD_PASS_*) in the files and tables:
 * "neighbor", "nonbonded", ... */
const char *vkmd_bench_md_pass_key(int pass);

/* Writes the `n` runs `r` on device `d`, with the date, the host CPU (from
 * /proc/cpuinfo where there is one) and the suite's settings, to `path`.
 * Errors: VKMD_ERROR_IO naming the path. */
vkmd_result vkmd_bench_md_write(const char *path, const vkmd_vk_device_info *d,
                                const vkmd_bench_md_result *r, int n);

/* One run as the reader sees it. */
typedef struct vkmd_bench_md_point {
    char system[128];
    int atoms;
    double dt, ns_day, us_step;
    double dispatches, lane_ratio, rebuilds; /* < 0: not in the file (older results) */
} vkmd_bench_md_point;

typedef struct vkmd_bench_md_file {
    char device[160];
    char commit[48];
    vkmd_bench_md_point p[VKMD_BENCH_MD_FILE_RUNS];
    int n;
} vkmd_bench_md_file;

/* Reads a file written by vkmd_bench_md_write (or an older one: figures it
 * lacks read as -1) into *out. Errors: VKMD_ERROR_IO (cannot open),
 * VKMD_ERROR_PARSE ("path:line: ..." for a run without its figures or too
 * many runs; "path: not a result file ..." naming what is missing). */
vkmd_result vkmd_bench_md_read(const char *path, vkmd_bench_md_file *out);

/* "<what>: device (vendor, driver name info), Vulkan x.y.z; vkmd version
 * (commit)", the first line of every bench table (bench_tables.c). */
void vkmd_bench_print_device(FILE *out, const char *what, const vkmd_vk_device_info *d);

/* The MD suite's runs as `vkmd bench` prints them: speed and work per step
 * (dispatches, barriers, submits), the pair work and list rebuilds, and the
 * GPU time per step by pass (bench_tables.c). */
void vkmd_bench_md_write_table(FILE *out, const vkmd_vk_device_info *d,
                               const vkmd_bench_md_result *r, int n);

/* Writes one markdown table comparing `count` files read by
 * vkmd_bench_md_read: a row per (system, time step) in order of first
 * appearance, a column per file (its device and commit) with ns/day,
 * us/step, dispatches per step, lane pairs per pair within the cutoff and
 * list rebuilds per 100 steps ("-" for a figure or a run the file lacks). */
void vkmd_bench_md_compare_write(FILE *out, const vkmd_bench_md_file *files, int count);

/* Writes an SVG plot of the same files to `path` (bench_md_svg.c): ns/day
 * against atoms, log-log, one line per file and time step (dashed at 2 fs),
 * a legend with each file's device and commit. Errors: VKMD_ERROR_IO
 * naming the path. */
vkmd_result vkmd_bench_md_compare_svg(const char *path, const vkmd_bench_md_file *files, int count);

#endif
