/* vkmd bench's suites beside cmd_bench.c: the MD suite (bench_md_report.c)
 * and --compare (bench_compare.c). */
#ifndef VKMD_TOOLS_CMD_BENCH_H
#define VKMD_TOOLS_CMD_BENCH_H

/* Neighbour-list skins of the MD suite's runs (A; 0: vkmd_md's defaults). */
typedef struct bench_md_skins {
    double skin_a;
    double outer_skin_a;
} bench_md_skins;

/* Runs the MD suite on `systems` (comma-separated: water:N or prmtop paths;
 * NULL: the built-in water boxes of ~3k, ~24k and ~96k atoms) at the time
 * steps in `dts` ("4,2": 4 fs with HMR 1.5 amu, 2 fs without); `steps` 0
 * picks per system; each run in every variant v < lj_count: LJ precision
 * lj[v] beyond lj_min_r[v] A (VKMD_LJ_*) with positions[v]
 * (VKMD_POSITIONS_*), with `skins`. Prints the table; writes JSON to `json`
 * if not NULL. Returns the exit code. */
int bench_md_main(const char *device, const char *systems, const char *dts, int steps,
                  const int *lj, const double *lj_min_r, const int *positions, int lj_count,
                  const bench_md_skins *skins, const char *json);

/* Reads result files written by bench_md_main, prints one markdown table
 * (ns/day and us/step per system and device) and writes an SVG plot of
 * ns/day against atoms (log-log, one line per device and time step) to
 * `svg`. Returns the exit code. */
int bench_compare_main(char **files, int count, const char *svg);

#endif
