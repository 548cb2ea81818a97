/* Strict command-line value parsing shared by the subcommands: a value that
 * is not entirely a number, or out of range, is an error naming the option. */
#ifndef VKMD_TOOLS_ARGS_H
#define VKMD_TOOLS_ARGS_H

#include "core/result.h"

#include <stddef.h>
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
/* A comma-separated list of numbers ("4,2"), each in [lo, hi], into
 * out[0 .. *out_count); an empty item, a non-number, a value out of range or
 * more than `max` items is an error naming the option. */
vkmd_result args_list(const char *opt, const char *s, double lo, double hi, double *out, int max,
                      int *out_count);
/* "NXxNYxNZ" or a single "N" for all three. */
vkmd_result args_grid(const char *opt, const char *s, int out[3]);

#define ARRAY_LEN(a) (sizeof(a) / sizeof *(a))

/* Table-driven options: a command lists its options once, with where each
 * value goes and its range, and args_table parses whichever one argv[*i] is. */
typedef enum args_kind {
    ARGS_FLAG,   /* no value: *(int *)out = 1 */
    ARGS_DOUBLE, /* *(double *)out, in [lo, hi] */
    ARGS_INT,    /* *(int *)out, in [lo, hi] */
    ARGS_WHOLE,  /* *(int64_t *)out, a whole number >= 0; 0 given becomes (int64_t)lo */
    ARGS_STRING, /* *(const char **)out = the value */
    ARGS_CHOICE  /* *(int *)out = index of the value in `choices` ("a|b|c") */
} args_kind;

typedef struct args_option {
    const char *name; /* "--dt" */
    args_kind kind;
    void *out;
    double lo, hi;
    const char *choices; /* ARGS_CHOICE: "langevin|verlet" */
} args_option;

/* Table entries (designated, so that unused fields need no mention). */
#define ARG_DOUBLE(n, p, l, h)                                                                     \
    {                                                                                              \
        .name = (n), .kind = ARGS_DOUBLE, .out = (p), .lo = (l), .hi = (h)                         \
    }
#define ARG_INT(n, p, l, h)                                                                        \
    {                                                                                              \
        .name = (n), .kind = ARGS_INT, .out = (p), .lo = (l), .hi = (h)                            \
    }
#define ARG_WHOLE(n, p, zero)                                                                      \
    {                                                                                              \
        .name = (n), .kind = ARGS_WHOLE, .out = (p), .lo = (zero)                                  \
    }
#define ARG_STRING(n, p)                                                                           \
    {                                                                                              \
        .name = (n), .kind = ARGS_STRING, .out = (p)                                               \
    }
#define ARG_FLAG(n, p)                                                                             \
    {                                                                                              \
        .name = (n), .kind = ARGS_FLAG, .out = (p)                                                 \
    }
#define ARG_CHOICE(n, p, c)                                                                        \
    {                                                                                              \
        .name = (n), .kind = ARGS_CHOICE, .out = (p), .choices = (c)                               \
    }

/* If argv[*i] is one of the `count` options, parses it (and its value,
 * advancing *i) into its `out`, sets *r (VKMD_OK or an error naming the
 * option) and returns 1; else returns 0 and leaves *r alone. */
int args_table(int argc, char **argv, int *i, const args_option *opts, size_t count,
               vkmd_result *r);

#endif
