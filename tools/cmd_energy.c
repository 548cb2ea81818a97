/* vkmd energy: potential energy per term and per-atom forces of one
 * configuration, on the CPU double-precision reference (--device cpu, the
 * default) or, every term, on a Vulkan device through the engine's force
 * field; printed by forces/energy_report.h. */
#include "core/options.h"
#include "commands.h"
#include "forces/energy_report.h"
#include "forces/forcefield.h"
#include "io/load.h"
#include "io/restraint_spec.h"
#include "run/run_options.h"
#include "ref/ref.h"
#include "vk/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: vkmd energy SYSTEM [options]\n"
        "  SYSTEM                 AMBER prmtop, or water:N (N TIP3P waters, 0.997 g/cm^3)\n"
        "  --coords FILE          coordinates: inpcrd, rst7 or pdb (default: SYSTEM's\n"
        "                         basename .inpcrd or .rst7)\n"
        "  --cutoff A             non-bonded cutoff in A (default 9)\n"
        "  --nonbonded fp32|fp16[-powers][:R]  LJ pair math on the device: fp32 (default), fp16\n"
        "                         for every pair, or fp16 beyond R A (docs/PRECISION.md)\n"
        "  --ewald-tolerance T    Ewald error tolerance (default 5e-4)\n"
        "  --ewald-alpha PER_A    Ewald splitting parameter in 1/A (default from tolerance)\n"
        "  --pme-grid NXxNYxNZ    PME grid, any size (default from the tolerance as OpenMM,\n"
        "                         rounded up to products of 2, 3, 5, 7 as its GPU platforms)\n"
        "  --openmm-reference-grid  default grid without the rounding, as OpenMM's Reference\n"
        "                         platform (e.g. 17x17x17 for water:216)\n"
        "  --pme-order N          PME B-spline order (default 5)\n"
        "  --no-dispersion-correction   no long-range LJ correction\n"
        "  --net-charge-correction      add -k pi Q^2/(2 V alpha^2) for a charged periodic\n"
        "                         system (off by default, as OpenMM; pmemd adds it)\n"
        "  --coulomb-constant openmm|amber   332.0637 (default) or 332.0522 kcal/mol "
        "A/e^2\n" VKMD_PRECISION_OPTIONS_USAGE);
    vkmd_run_options_usage(out, VKMD_RUN_OPTIONS_RESTRAINTS | VKMD_RUN_OPTIONS_IMPLICIT);
    fprintf(out,
            "  --device cpu|gpu|N|NAME  cpu = double-precision reference (default); gpu = the\n"
            "                         best Vulkan device; a Vulkan device by index or name\n"
            "                         substring (see vkmd devices)\n"
            "  --json                 one JSON object on stdout\n"
            "  --forces FILE          write per-atom forces (kcal/mol/A)\n");
}

/* Every term on the Vulkan device `device` ("gpu": the context's own
 * choice, VKMD_DEVICE else the best device); fills e, forces, the device's
 * label and the precision the options resolved to. */
static vkmd_result energy_gpu(const char *device, const vkmd_precision_options *precision,
                              const vkmd_system *sys, const vkmd_restraints *restraints,
                              vkmd_ff_settings *s, char label[320], vkmd_precision_choice *choice,
                              vkmd_energy *e, double *forces)
{
    vkmd_result res = VKMD_OK;
    vkmd_vk_context *ctx = NULL;
    vkmd_forcefield *ff = NULL;
    const vkmd_vk_context_desc cdesc = {.device = strcmp(device, "gpu") ? device : NULL};
    VKMD_TRY(vkmd_vk_context_create(&cdesc, &ctx));
    snprintf(label, 320, "%s (Vulkan device %u)", ctx->info.name, ctx->info.index);
    VKMD_TRY(vkmd_precision_options_resolve(precision, ctx, sys, s, choice));
    const vkmd_forcefield_desc fdesc = {.settings = s,
                                        .restraints = restraints->count ? restraints : NULL};
    VKMD_TRY(vkmd_forcefield_create(ctx, sys, &fdesc, &ff));
    VKMD_TRY(vkmd_forcefield_evaluate(ctx, ff, NULL, e, forces));
    VKMD_TRY(vkmd_vk_context_check_validation(ctx));
cleanup:
    if (ctx) {
        vkmd_forcefield_destroy(ctx, ff);
        vkmd_vk_context_destroy(ctx);
    }
    return res;
}

int cmd_energy(int argc, char **argv)
{
    const char *system = NULL, *coords = NULL, *forces_path = NULL, *device = "cpu";
    int json = 0, coulomb = VKMD_COULOMB_OPENMM;
    vkmd_ff_settings ff = {0};
    vkmd_restraint_spec restrain = {0};
    vkmd_precision_options precision = VKMD_PRECISION_OPTIONS_INIT;
    const vkmd_option opts[] = {
        VKMD_OPT_STRING("--coords", &coords),
        VKMD_OPT_DOUBLE("--cutoff", &ff.cutoff_a, 1e-3, 1e4),
        VKMD_OPT_DOUBLE("--ewald-tolerance", &ff.ewald_tolerance, 1e-12, 0.49),
        VKMD_OPT_DOUBLE("--ewald-alpha", &ff.ewald_alpha, 1e-6, 100),
        VKMD_OPT_INT("--pme-order", &ff.pme_order, 3, 12),
        VKMD_OPT_FLAG("--openmm-reference-grid", &ff.openmm_reference_grid),
        VKMD_OPT_FLAG("--net-charge-correction", &ff.net_charge_correction),
        VKMD_OPT_FLAG("--no-dispersion-correction", &ff.no_dispersion_correction),
        VKMD_OPT_CHOICE("--coulomb-constant", &coulomb, "openmm|amber"),
        VKMD_OPT_STRING("--device", &device),
        VKMD_OPT_FLAG("--json", &json),
        VKMD_OPT_STRING("--forces", &forces_path)};
    vkmd_result r = VKMD_OK;
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i], *v = NULL;
        int handled = 0;
        r = vkmd_precision_options_parse(&precision, argc, argv, &i, &handled);
        if (handled || r != VKMD_OK ||
            vkmd_options_parse(argc, argv, &i, opts, VKMD_ARRAY_LEN(opts), &r) ||
            vkmd_run_options_parse_restraints(&restrain, argc, argv, &i, &r) ||
            vkmd_run_options_parse_implicit(&ff.gb, argc, argv, &i, &r))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--pme-grid")) {
            VKMD_OPTION_VALUE();
            if (v)
                r = vkmd_option_grid(a, v, ff.pme_grid);
        } else if (a[0] == '-' && a[1]) {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown option '%s' (see --help)", a);
        } else if (!system) {
            system = a;
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unexpected argument '%s'", a);
        }
    }
    ff.coulomb = (vkmd_coulomb_constant)coulomb;
    if (r == VKMD_OK && !system)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no SYSTEM given (see vkmd energy --help)");
    if (r != VKMD_OK) {
        tool_error("energy", r);
        return 2;
    }

    vkmd_result res = VKMD_OK;
    vkmd_system sys;
    memset(&sys, 0, sizeof sys);
    vkmd_restraints restraints = {0};
    double *forces = NULL;
    vkmd_energy e;
    memset(&e, 0, sizeof e);
    char label[320];
    vkmd_precision_choice choice;
    vkmd_energy_report_desc report = {.system = system, .json = json};
    int exit_code = 1;

    VKMD_TRY(vkmd_system_load(system, coords, &sys));
    /* Name the coordinate file in a missing-coordinates or small-box error. */
    VKMD_TRY(vkmd_system_check_coordinates(&sys, ff.cutoff_a > 0 ? ff.cutoff_a : VKMD_FF_CUTOFF_A,
                                           coords ? coords : system));
    VKMD_TRY(vkmd_ff_settings_resolve(&ff, &sys));
    VKMD_TRY(vkmd_restraint_spec_build(&restrain, &sys, &restraints));
    forces = calloc((size_t)sys.atom_count * 3, sizeof *forces);
    if (!forces) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "no memory for %d forces", sys.atom_count);
        goto cleanup;
    }
    if (!strcmp(device, "cpu") &&
        (precision.precision != VKMD_PRECISION_AUTO || precision.positions >= 0 ||
         (precision.lj_set && precision.lj != VKMD_LJ_FP32))) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "--precision, --positions and --nonbonded fp16 choose device arithmetic; "
                        "the CPU reference is double (add --device gpu)");
        goto cleanup;
    }
    if (!strcmp(device, "cpu")) {
        report.device = "cpu (double-precision reference)";
        VKMD_TRY(vkmd_ref_compute_restrained(&sys, &ff, &restraints, &e, forces));
    } else {
        VKMD_TRY(
            energy_gpu(device, &precision, &sys, &restraints, &ff, label, &choice, &e, forces));
        report.device = label;
        report.choice = &choice;
    }
    VKMD_TRY(vkmd_energy_report_write(stdout, &report, &sys, &ff, &e));
    if (forces_path)
        VKMD_TRY(vkmd_energy_report_write_forces(forces_path, report.device, &sys, forces));
    exit_code = 0;
cleanup:
    if (exit_code != 0)
        tool_error("energy", res);
    free(forces);
    vkmd_restraints_destroy(&restraints);
    vkmd_system_destroy(&sys);
    return exit_code;
}
