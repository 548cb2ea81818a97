/* Strict command-line value parsing shared by the subcommands: a value that
 * is not entirely a number, or out of range, is an error naming the option. */
#ifndef VKMD_TOOLS_ARGS_H
#define VKMD_TOOLS_ARGS_H

#include "core/result.h"

#include <stdint.h>

/* Returns the option's value argv[*i + 1] and advances *i, or NULL (after
 * recording an error) when it is missing. */
const char *args_value(int argc, char **argv, int *i);
/* Inside an option loop (argc, argv, index i, result r, value v in scope):
 * v = the option's value, or r = VKMD_ERROR_INVALID_ARGUMENT when missing. */
#define ARGS_VALUE()                                                                               \
    do {                                                                                           \
        if (!(v = args_value(argc, argv, &i)))                                                     \
            r = VKMD_ERROR_INVALID_ARGUMENT;                                                       \
    } while (0)

vkmd_result args_double(const char *opt, const char *s, double lo, double hi, double *out);
/* A whole number >= 0 (up to 1e15) into *out; 0 becomes `zero_as` (e.g. -1
 * where an engine desc's 0 means its default and the option's 0 means none). */
vkmd_result args_whole(const char *opt, const char *s, int64_t zero_as, int64_t *out);
vkmd_result args_int(const char *opt, const char *s, long lo, long hi, int *out);
/* --nonbonded: "fp32", "fp16" or "fp16-powers" (the VKMD_LJ_* forms, for
 * every pair), or either fp16 form with ":R" (for pairs at r >= R A, fp32
 * closer), into *out_fp16 and *out_min_r_a. */
vkmd_result args_nonbonded(const char *opt, const char *s, int *out_fp16, double *out_min_r_a);
/* "NXxNYxNZ" or a single "N" for all three. */
vkmd_result args_grid(const char *opt, const char *s, int out[3]);

#endif
