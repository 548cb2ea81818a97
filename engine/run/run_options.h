/* The molecular-dynamics options as a command line gives them, for every
 * client that takes them as text: `vkmd run`, `vkmd equilibrate` and
 * `vkmd-mpi ensemble` (a Python or other front end can take the same names).
 * One table (run_options.c) holds each option's name, where its value goes
 * in a vkmd_run_desc, its range and its help lines, so the commands parse
 * the same options the same way and print one help text for them
 * (tests/test_cli_md_options.sh checks that every option of the table is
 * accepted by all three). Each command adds its own options (the window's,
 * --remd, --heat-ps ...) and maps the few values whose meaning its protocol
 * fixes (equilibrate: --pressure is the density stages', --restrain the
 * solute's).
 *
 * The restraint options are a group of their own that `vkmd energy` parses
 * too (into its vkmd_restraint_spec), so are the implicit-solvent options
 * (into its vkmd_ff_settings.gb), and the precision options
 * (--precision, --positions, --nonbonded) a parser of their own that energy
 * and bench use as well. Parsing only: no Vulkan, no allocation; errors are
 * VKMD_ERROR_INVALID_ARGUMENT naming the option. */
#ifndef VKMD_RUN_RUN_OPTIONS_H
#define VKMD_RUN_RUN_OPTIONS_H

#include "forces/precision.h"
#include "run/run.h"

#include <stdint.h>
#include <stdio.h>

/* --precision, --positions and --nonbonded (also vkmd energy's and bench's):
 * the mode (forces/precision.h) picks positions and LJ arithmetic; explicit
 * --positions / --nonbonded override its pieces. */
typedef struct vkmd_precision_options {
    vkmd_precision precision; /* AUTO */
    int positions;            /* -1 (unset) or VKMD_POSITIONS_* */
    int lj_set;               /* --nonbonded given */
    int lj;                   /* VKMD_LJ_* */
    double lj_min_r_a;
} vkmd_precision_options;

#define VKMD_PRECISION_OPTIONS_INIT                                                                \
    {                                                                                              \
        VKMD_PRECISION_AUTO, -1, 0, 0, 0.0                                                         \
    }

/* Usage lines for the three options. */
#define VKMD_PRECISION_OPTIONS_USAGE                                                               \
    "  --precision auto|single|mixed|fixed  positions and LJ arithmetic (docs/PRECISION.md);\n"    \
    "                         auto (default): calibrated on the device; single: fp32;\n"           \
    "                         mixed: split-float positions; fixed: split-int positions\n"          \
    "  --positions fp32|split-float|split-int  override the mode's positions\n"                    \
    "  --nonbonded fp32|fp16[-powers][:R]  override the mode's LJ arithmetic (fp16 forms\n"        \
    "                         for pairs at r >= R A)\n"

/* If argv[*i] is one of the three options, parses its value (advancing *i)
 * into `o`, sets *out_handled and returns the parse result; else returns
 * VKMD_OK with *out_handled = 0. */
vkmd_result vkmd_precision_options_parse(vkmd_precision_options *o, int argc, char **argv, int *i,
                                         int *out_handled);

/* The options as the engine's precision request (forces/precision.h). */
vkmd_precision_request vkmd_precision_options_request(const vkmd_precision_options *o);

/* Chooses (calibrating on ctx, required), applies the
 * overrides and writes the result into `s` (a resolved settings) and `out`. */
vkmd_result vkmd_precision_options_resolve(const vkmd_precision_options *o, vkmd_vk_context *ctx,
                                           const vkmd_system *sys, vkmd_ff_settings *s,
                                           vkmd_precision_choice *out);

/* Groups of the table. */
enum {
    VKMD_RUN_OPTIONS_COMMON = 1,     /* every MD command */
    VKMD_RUN_OPTIONS_PRODUCTION = 2, /* a production run's length and checkpoints (--steps,
                                  --equilibrate, --checkpoint-every): run and ensemble;
                                  equilibrate's protocol sets its own */
    VKMD_RUN_OPTIONS_RESTRAINTS = 4, /* --restrain ... --reference: every MD command and energy */
    VKMD_RUN_OPTIONS_IMPLICIT = 8,   /* --implicit, --salt, --gbsa ...: every MD command and
                                        energy (into vkmd_ff_settings.gb) */
    VKMD_RUN_OPTIONS_ALL = 15
};

typedef struct vkmd_run_options {
    vkmd_run_desc run; /* the values (zero: the engine's defaults), enums below applied by
                          vkmd_run_options_finish */
    vkmd_precision_options precision;
    const char *device; /* --device; NULL: the command's default */
    int json;           /* --json */
    int seed;           /* 1 */
    int com_every;      /* 100; 0 given: never */
    int integrator, constraints, rigid_water_no, barostat; /* choice indices */
    uint64_t given; /* bit k: table entry k was on the command line */
} vkmd_run_options;

/* The defaults above (everything else zero). */
void vkmd_run_options_init(vkmd_run_options *o);

/* If argv[*i] is an option of the table, parses it (and its value,
 * advancing *i) and returns 1 with *r set (VKMD_OK, or an error naming the
 * option); an option of a group outside `groups` is refused with
 * `refusal` ("--steps: <refusal>"). Else returns 0 and leaves *r alone. */
int vkmd_run_options_parse(vkmd_run_options *o, unsigned groups, const char *refusal, int argc,
                           char **argv, int *i, vkmd_result *r);

/* The restraint group alone, into `spec` (vkmd energy). */
int vkmd_run_options_parse_restraints(vkmd_restraint_spec *spec, int argc, char **argv, int *i,
                                      vkmd_result *r);

/* The implicit-solvent group alone, into `gb` (vkmd energy). */
int vkmd_run_options_parse_implicit(vkmd_gb_settings *gb, int argc, char **argv, int *i,
                                    vkmd_result *r);

/* 1 when `name` ("--pressure") was given. */
int vkmd_run_options_given(const vkmd_run_options *o, const char *name);

/* Applies the choice, seed and precision values to o->run. */
void vkmd_run_options_finish(vkmd_run_options *o);

/* The help lines of the groups' options, in table order. */
void vkmd_run_options_usage(FILE *out, unsigned groups);

#endif
