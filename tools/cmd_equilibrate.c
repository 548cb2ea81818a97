/* vkmd equilibrate: the equilibration a solvated system needs before
 * production (engine/run/equilibrate.h): minimise with the solute
 * restrained, heat at constant volume, bring to density at constant pressure
 * while the restraints taper off, release. Prints each stage's figures (text
 * or JSON) and where the final state is. */
#include "core/options.h"
#include "commands.h"
#include "run/run_options.h"
#include "run/progress_line.h"
#include "core/stop.h"
#include "run/equilibrate.h"
#include "vk/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vkmd equilibrate SYSTEM [options]\n"
            "  SYSTEM                 AMBER prmtop of a solvated system (periodic box)\n"
            "  --heat-ps PS           heating at constant volume (default 20)\n"
            "  --heat-increments N    bath raised to T in N equal steps (default 10)\n"
            "  --density-ps PS        constant pressure with restraints tapering (default 50)\n"
            "  --taper-stages N       restraint k from K to 0 in N equal parts (default 5)\n"
            "  --release-ps PS        constant pressure without restraints (default 50)\n"
            "  --scale F              multiply the three durations by F (e.g. 0.1 for a test)\n"
            "  restraints by default on the solute's heavy atoms, --restrain\n"
            "                         '" VKMD_EQUIL_SOLUTE_MASK "'\n"
            "MD options (vkmd run's but --steps, --equilibrate, --checkpoint-every):\n");
    vkmd_run_options_usage(out, VKMD_RUN_OPTIONS_COMMON | VKMD_RUN_OPTIONS_RESTRAINTS |
                                    VKMD_RUN_OPTIONS_IMPLICIT);
    fprintf(out,
            "Outputs in DIR: equilibrate.csv (stage, T, bath, restraint k and energy, density,\n"
            "solute RMSD), energy.csv, traj.dcd, stage_N_NAME.chk after each stage, and the\n"
            "final state: final.rst7 (positions, velocities, box), final.pdb, final.chk.\n"
            "Continue with: vkmd run SYSTEM --coords DIR/final.rst7 (or DIR/final.chk).\n");
}

typedef struct eq_cli {
    vkmd_run_options o; /* o.run becomes d.run */
    vkmd_equil_desc d;
    double scale;
} eq_cli;

static vkmd_result parse(int argc, char **argv, eq_cli *q)
{
    vkmd_equil_desc *d = &q->d;
    vkmd_run_desc *rd = &q->o.run;
    vkmd_result r = VKMD_OK;
    const vkmd_option opts[] = {VKMD_OPT_DOUBLE("--heat-ps", &d->heat_ps, 1e-6, 1e6),
                                VKMD_OPT_DOUBLE("--density-ps", &d->density_ps, 1e-6, 1e6),
                                VKMD_OPT_DOUBLE("--release-ps", &d->release_ps, 1e-6, 1e6),
                                VKMD_OPT_DOUBLE("--scale", &q->scale, 1e-6, 1e3),
                                VKMD_OPT_INT("--heat-increments", &d->heat_increments, 1, 20),
                                VKMD_OPT_INT("--taper-stages", &d->taper_stages, 1, 20)};
    const char *refusal = "not an option of vkmd equilibrate: its protocol sets the length "
                          "(--heat-ps, --density-ps, --release-ps, --scale) and writes a "
                          "checkpoint at every report";
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i];
        if (vkmd_run_options_parse(&q->o,
                                   VKMD_RUN_OPTIONS_COMMON | VKMD_RUN_OPTIONS_RESTRAINTS |
                                       VKMD_RUN_OPTIONS_IMPLICIT,
                                   refusal, argc, argv, &i, &r) ||
            vkmd_options_parse(argc, argv, &i, opts, VKMD_ARRAY_LEN(opts), &r))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (a[0] == '-' && a[1]) {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown option '%s' (see --help)", a);
        } else if (!rd->system) {
            rd->system = a;
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unexpected argument '%s'", a);
        }
    }
    if (r == VKMD_OK && !rd->system)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no SYSTEM given (see vkmd equilibrate --help)");
    vkmd_run_options_finish(&q->o);
    /* What the protocol owns: the pressure of its constant-pressure stages,
     * the restraints it tapers, its report interval. */
    if (r == VKMD_OK && vkmd_run_options_given(&q->o, "--pressure") && rd->md.pressure_bar == 0)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                      "--pressure 0: the density and free stages run at constant pressure");
    if (vkmd_run_options_given(&q->o, "--pressure"))
        d->pressure_bar = rd->md.pressure_bar;
    rd->md.pressure_bar = 0;
    d->mask = rd->restraints.mask;
    d->restraint_k = rd->restraints.k;
    if (vkmd_run_options_given(&q->o, "--report-every"))
        d->report_every = rd->report_every;
    if (!rd->out_dir)
        rd->out_dir = "vkmd_equil";
    if (q->scale > 0) {
        d->heat_ps = (d->heat_ps > 0 ? d->heat_ps : 20.0) * q->scale;
        d->density_ps = (d->density_ps > 0 ? d->density_ps : 50.0) * q->scale;
        d->release_ps = (d->release_ps > 0 ? d->release_ps : 50.0) * q->scale;
    }
    d->run = *rd;
    return r;
}

int cmd_equilibrate(int argc, char **argv)
{
    eq_cli q = {0};
    vkmd_run_options_init(&q.o);
    vkmd_equil_desc checked;
    vkmd_result res = parse(argc, argv, &q);
    if (res == VKMD_OK)
        res = vkmd_equil_desc_resolve(&q.d, &checked);
    if (res != VKMD_OK) {
        tool_error("equilibrate", res);
        return 2;
    }
    vkmd_vk_context *ctx = NULL;
    (void)vkmd_stop_catch_signals();
    const vkmd_vk_context_desc cdesc = {
        .device = q.o.device && strcmp(q.o.device, "gpu") ? q.o.device : NULL};
    if ((res = vkmd_vk_context_create(&cdesc, &ctx)) != VKMD_OK) {
        tool_error("equilibrate", res);
        return 1;
    }
    vkmd_progress_reporter console;
    vkmd_reporter cli = vkmd_progress_reporter_make(&console, "vkmd equilibrate");
    vkmd_equil_summary s;
    res = vkmd_equilibrate(ctx, &checked, &cli, 1, &s);
    vkmd_progress_reporter_note(&console, NULL); /* ends the progress line */
    int exit_code = 0;
    if (res != VKMD_OK) {
        tool_error("equilibrate", res);
        fprintf(stderr,
                "vkmd equilibrate: %d of 4 stages done; each finished stage's checkpoint is in "
                "%s (stage_N_NAME.chk)\n",
                s.stages_done, checked.run.out_dir);
        exit_code = res == VKMD_ERROR_NUMERIC ? 3 : 1;
    } else if (vkmd_stop_requested()) {
        vkmd_equil_summary_write_stop(stderr, &checked, &s);
        exit_code = vkmd_stop_exit_code(vkmd_stop_requested());
    } else if ((res = vkmd_vk_context_check_validation(ctx)) != VKMD_OK) {
        tool_error("equilibrate", res);
        exit_code = 1;
    } else if (q.o.json) {
        vkmd_equil_summary_write_json(stdout, &checked, &s);
    } else {
        vkmd_equil_summary_write_text(stdout, &checked, &s);
    }
    vkmd_vk_context_destroy(ctx);
    return exit_code;
}
