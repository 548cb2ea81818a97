/* Command-line options for any client of the engine (the vkmd command,
 * the MPI driver vkmd-mpi): strict parsing of option values (a value that is
 * not entirely a number, or out of range, is an error naming the option)
 * and option tables (a command lists its options once, with where each
 * value goes and its range). The MD run options built on it are
 * run/run_options.h. No Vulkan, no allocation. */
#ifndef VKMD_CORE_OPTIONS_H
#define VKMD_CORE_OPTIONS_H

#include "core/result.h"

#include <stddef.h>
#include <stdint.h>

/* Returns the option's value argv[*i + 1] and advances *i, or NULL (after
 * recording an error) when it is missing. */
const char *vkmd_option_value(int argc, char **argv, int *i);
/* Inside an option loop (argc, argv, index i, result r, value v in scope):
 * v = the option's value, or r = VKMD_ERROR_INVALID_ARGUMENT when missing. */
#define VKMD_OPTION_VALUE()                                                                        \
    do {                                                                                           \
        if (!(v = vkmd_option_value(argc, argv, &i)))                                              \
            r = VKMD_ERROR_INVALID_ARGUMENT;                                                       \
    } while (0)

vkmd_result vkmd_option_double(const char *opt, const char *s, double lo, double hi, double *out);
/* A whole number >= 0 (up to 1e15) into *out; 0 becomes `zero_as` (e.g. -1
 * where an engine desc's 0 means its default and the option's 0 means none). */
vkmd_result vkmd_option_whole(const char *opt, const char *s, int64_t zero_as, int64_t *out);
vkmd_result vkmd_option_int(const char *opt, const char *s, long lo, long hi, int *out);
/* A comma-separated list of numbers ("4,2"), each in [lo, hi], into
 * out[0 .. *out_count); an empty item, a non-number, a value out of range or
 * more than `max` items is an error naming the option. */
vkmd_result vkmd_option_list(const char *opt, const char *s, double lo, double hi, double *out,
                             int max, int *out_count);
/* "NXxNYxNZ" or a single "N" for all three. */
vkmd_result vkmd_option_grid(const char *opt, const char *s, int out[3]);

#define VKMD_ARRAY_LEN(a) (sizeof(a) / sizeof *(a))

/* Table-driven options: a command lists its options once, with where each
 * value goes and its range, and vkmd_options_parse parses whichever one argv[*i] is. */
typedef enum vkmd_option_kind {
    VKMD_OPTION_FLAG,   /* no value: *(int *)out = 1 */
    VKMD_OPTION_DOUBLE, /* *(double *)out, in [lo, hi] */
    VKMD_OPTION_INT,    /* *(int *)out, in [lo, hi] */
    VKMD_OPTION_WHOLE,  /* *(int64_t *)out, a whole number >= 0; 0 given becomes (int64_t)lo */
    VKMD_OPTION_STRING, /* *(const char **)out = the value */
    VKMD_OPTION_CHOICE  /* *(int *)out = index of the value in `choices` ("a|b|c") */
} vkmd_option_kind;

typedef struct vkmd_option {
    const char *name; /* "--dt" */
    vkmd_option_kind kind;
    void *out;
    double lo, hi;
    const char *choices; /* VKMD_OPTION_CHOICE: "langevin|verlet" */
} vkmd_option;

/* Table entries (designated, so that unused fields need no mention). */
#define VKMD_OPT_DOUBLE(n, p, l, h)                                                                \
    {                                                                                              \
        .name = (n), .kind = VKMD_OPTION_DOUBLE, .out = (p), .lo = (l), .hi = (h)                  \
    }
#define VKMD_OPT_INT(n, p, l, h)                                                                   \
    {                                                                                              \
        .name = (n), .kind = VKMD_OPTION_INT, .out = (p), .lo = (l), .hi = (h)                     \
    }
#define VKMD_OPT_WHOLE(n, p, zero)                                                                 \
    {                                                                                              \
        .name = (n), .kind = VKMD_OPTION_WHOLE, .out = (p), .lo = (zero)                           \
    }
#define VKMD_OPT_STRING(n, p)                                                                      \
    {                                                                                              \
        .name = (n), .kind = VKMD_OPTION_STRING, .out = (p)                                        \
    }
#define VKMD_OPT_FLAG(n, p)                                                                        \
    {                                                                                              \
        .name = (n), .kind = VKMD_OPTION_FLAG, .out = (p)                                          \
    }
#define VKMD_OPT_CHOICE(n, p, c)                                                                   \
    {                                                                                              \
        .name = (n), .kind = VKMD_OPTION_CHOICE, .out = (p), .choices = (c)                        \
    }

/* If argv[*i] is one of the `count` options, parses it (and its value,
 * advancing *i) into its `out`, sets *r (VKMD_OK or an error naming the
 * option) and returns 1; else returns 0 and leaves *r alone. */
int vkmd_options_parse(int argc, char **argv, int *i, const vkmd_option *opts, size_t count,
                       vkmd_result *r);

#endif
