/* vkmd bench --compare (bench_compare.c), called by cmd_bench.c. */
#ifndef VKMD_TOOLS_CMD_BENCH_H
#define VKMD_TOOLS_CMD_BENCH_H

/* Reads result files of the MD suite (sim/bench_md_file.h), prints one
 * markdown table (ns/day and us/step per system and device) and writes an
 * SVG plot of ns/day against atoms (log-log, one line per device and time
 * step) to `svg`. Returns the exit code. */
int bench_compare_main(char **files, int count, const char *svg);

#endif
