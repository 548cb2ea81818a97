/* --precision, --positions and --nonbonded, shared by energy, run and bench:
 * the mode (engine/forces/precision.h) picks positions and LJ arithmetic;
 * explicit --positions / --nonbonded override its pieces. */
#ifndef VKMD_TOOLS_PRECISION_OPTIONS_H
#define VKMD_TOOLS_PRECISION_OPTIONS_H

#include "forces/precision.h"

typedef struct precision_options {
    vkmd_precision precision; /* AUTO */
    int positions;            /* -1 (unset) or VKMD_POSITIONS_* */
    int lj_set;               /* --nonbonded given */
    int lj;                   /* VKMD_LJ_* */
    double lj_min_r_a;
} precision_options;

#define PRECISION_OPTIONS_INIT                                                                     \
    {                                                                                              \
        VKMD_PRECISION_AUTO, -1, 0, 0, 0.0                                                         \
    }

/* Usage lines for the three options. */
#define PRECISION_OPTIONS_USAGE                                                                    \
    "  --precision auto|single|mixed|fixed  positions and LJ arithmetic (docs/PRECISION.md);\n"    \
    "                         auto (default): calibrated on the device; single: fp32;\n"           \
    "                         mixed: split-float positions; fixed: split-int positions\n"          \
    "  --positions fp32|split-float|split-int  override the mode's positions\n"                    \
    "  --nonbonded fp32|fp16[-powers][:R]  override the mode's LJ arithmetic (fp16 forms\n"        \
    "                         for pairs at r >= R A)\n"

/* If argv[*i] is one of the three options, parses its value (advancing *i)
 * into `o`, sets *out_handled and returns the parse result; else returns
 * VKMD_OK with *out_handled = 0. */
vkmd_result precision_options_parse(precision_options *o, int argc, char **argv, int *i,
                                    int *out_handled);

/* The options as the engine's precision request (forces/precision.h). */
vkmd_precision_request precision_options_request(const precision_options *o);

/* Chooses (calibrating on ctx, required), applies the
 * overrides and writes the result into `s` (a resolved settings) and `out`. */
vkmd_result precision_options_resolve(const precision_options *o, vkmd_vk_context *ctx,
                                      const vkmd_system *sys, vkmd_ff_settings *s,
                                      vkmd_precision_choice *out);

#endif
