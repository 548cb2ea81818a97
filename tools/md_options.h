/* The molecular-dynamics options of `vkmd run`, `vkmd equilibrate` and
 * `vkmd-mpi ensemble`: one table (md_options.c) holds each option's name,
 * where its value goes, its range and its help lines, so the three commands
 * parse the same options the same way and print one help text for them
 * (tests/test_cli_md_options.sh checks that every option of the table is
 * accepted by all three). Each command adds its own options (the window's,
 * --remd, --heat-ps ...) and maps the few values whose meaning its protocol
 * fixes (equilibrate: --pressure is the density stages', --restrain the
 * solute's).
 *
 * The restraint options are a group of their own that `vkmd energy` parses
 * too (into its vkmd_restraint_spec). */
#ifndef VKMD_TOOLS_MD_OPTIONS_H
#define VKMD_TOOLS_MD_OPTIONS_H

#include "precision_options.h"
#include "run/run.h"

#include <stdint.h>
#include <stdio.h>

/* Groups of the table. */
enum {
    MD_OPTIONS_COMMON = 1,     /* every MD command */
    MD_OPTIONS_PRODUCTION = 2, /* a production run's length and checkpoints (--steps,
                                  --equilibrate, --checkpoint-every): run and ensemble;
                                  equilibrate's protocol sets its own */
    MD_OPTIONS_RESTRAINTS = 4, /* --restrain ... --reference: every MD command and energy */
    MD_OPTIONS_ALL = 7
};

typedef struct md_options {
    vkmd_run_desc run; /* the values (zero: the engine's defaults), enums below applied by
                          md_options_finish */
    precision_options precision;
    const char *device; /* --device; NULL: the command's default */
    int json;           /* --json */
    int seed;           /* 1 */
    int com_every;      /* 100; 0 given: never */
    int integrator, constraints, rigid_water_no, barostat; /* choice indices */
    uint64_t given; /* bit k: table entry k was on the command line */
} md_options;

/* The defaults above (everything else zero). */
void md_options_init(md_options *o);

/* If argv[*i] is an option of the table, parses it (and its value,
 * advancing *i) and returns 1 with *r set (VKMD_OK, or an error naming the
 * option); an option of a group outside `groups` is refused with
 * `refusal` ("--steps: <refusal>"). Else returns 0 and leaves *r alone. */
int md_options_parse(md_options *o, unsigned groups, const char *refusal, int argc, char **argv,
                     int *i, vkmd_result *r);

/* The restraint group alone, into `spec` (vkmd energy). */
int md_options_parse_restraints(vkmd_restraint_spec *spec, int argc, char **argv, int *i,
                                vkmd_result *r);

/* 1 when `name` ("--pressure") was given. */
int md_options_given(const md_options *o, const char *name);

/* Applies the choice, seed and precision values to o->run. */
void md_options_finish(md_options *o);

/* The help lines of the groups' options, in table order. */
void md_options_usage(FILE *out, unsigned groups);

#endif
