/* vkmd energy: potential energy per term and per-atom forces of one
 * configuration, on the CPU double-precision reference (--device cpu, the
 * default) or, every term, on a Vulkan device (energy_gpu.c). */
#include "args.h"
#include "commands.h"
#include "energy_report.h"
#include "io/load.h"
#include "ref/ref.h"

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
        "A/e^2\n" PRECISION_OPTIONS_USAGE
        "  --device cpu|gpu|N|NAME  cpu = double-precision reference (default); gpu = the\n"
        "                         best Vulkan device; a Vulkan device by index or name\n"
        "                         substring (see vkmd devices)\n"
        "  --json                 one JSON object on stdout\n"
        "  --forces FILE          write per-atom forces (kcal/mol/A)\n");
}

int cmd_energy(int argc, char **argv)
{
    energy_request req;
    memset(&req, 0, sizeof req);
    req.device = "cpu";
    req.precision = (precision_options)PRECISION_OPTIONS_INIT;
    vkmd_result r = VKMD_OK;
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i], *v = NULL;
        int handled = 0;
        r = precision_options_parse(&req.precision, argc, argv, &i, &handled);
        if (handled || r != VKMD_OK)
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--coords")) {
            ARGS_VALUE();
            req.coords = v;
        } else if (!strcmp(a, "--cutoff")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-3, 1e4, &req.ff.cutoff_a);
        } else if (!strcmp(a, "--ewald-tolerance")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-12, 0.49, &req.ff.ewald_tolerance);
        } else if (!strcmp(a, "--ewald-alpha")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-6, 100, &req.ff.ewald_alpha);
        } else if (!strcmp(a, "--pme-grid")) {
            ARGS_VALUE();
            if (v)
                r = args_grid(a, v, req.ff.pme_grid);
        } else if (!strcmp(a, "--pme-order")) {
            ARGS_VALUE();
            if (v)
                r = args_int(a, v, 3, 12, &req.ff.pme_order);
        } else if (!strcmp(a, "--openmm-reference-grid")) {
            req.ff.openmm_reference_grid = 1;
        } else if (!strcmp(a, "--net-charge-correction")) {
            req.ff.net_charge_correction = 1;
        } else if (!strcmp(a, "--no-dispersion-correction")) {
            req.ff.no_dispersion_correction = 1;
        } else if (!strcmp(a, "--coulomb-constant")) {
            ARGS_VALUE();
            if (v && !strcmp(v, "openmm"))
                req.ff.coulomb = VKMD_COULOMB_OPENMM;
            else if (v && !strcmp(v, "amber"))
                req.ff.coulomb = VKMD_COULOMB_AMBER;
            else if (v)
                r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                              "--coulomb-constant: '%s' is not openmm or amber", v);
        } else if (!strcmp(a, "--device")) {
            ARGS_VALUE();
            req.device = v;
        } else if (!strcmp(a, "--json")) {
            req.json = 1;
        } else if (!strcmp(a, "--forces")) {
            ARGS_VALUE();
            req.forces_path = v;
        } else if (a[0] == '-' && a[1]) {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown option '%s' (see --help)", a);
        } else if (!req.system) {
            req.system = a;
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unexpected argument '%s'", a);
        }
    }
    if (r == VKMD_OK && !req.system)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no SYSTEM given (see vkmd energy --help)");
    if (r != VKMD_OK) {
        tool_error("energy", r);
        return 2;
    }

    vkmd_result res = VKMD_OK;
    vkmd_system sys;
    memset(&sys, 0, sizeof sys);
    double *forces = NULL;
    vkmd_energy e;
    memset(&e, 0, sizeof e);
    int exit_code = 1;

    VKMD_TRY(vkmd_system_load(req.system, req.coords, &sys));
    /* Name the coordinate file in a missing-coordinates or small-box error. */
    const char *source = req.coords ? req.coords : req.system;
    VKMD_TRY(
        vkmd_system_check_coordinates(&sys, req.ff.cutoff_a > 0 ? req.ff.cutoff_a : 9.0, source));
    VKMD_TRY(vkmd_ff_settings_resolve(&req.ff, &sys));
    forces = calloc((size_t)sys.atom_count * 3, sizeof *forces);
    if (!forces) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "no memory for %d forces", sys.atom_count);
        goto cleanup;
    }
    if (!strcmp(req.device, "cpu") &&
        (req.precision.precision != VKMD_PRECISION_AUTO || req.precision.positions >= 0 ||
         (req.precision.lj_set && req.precision.lj != VKMD_LJ_FP32))) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "--precision, --positions and --nonbonded fp16 choose device arithmetic; "
                        "the CPU reference is double (add --device gpu)");
        goto cleanup;
    }
    if (!strcmp(req.device, "cpu")) {
        req.device_name = "cpu (double-precision reference)";
        VKMD_TRY(vkmd_ref_compute(&sys, &req.ff, &e, forces));
    } else {
        VKMD_TRY(energy_gpu(&req, &sys, &e, forces));
    }
    VKMD_TRY(energy_report_print(&req, &sys, &e, stdout));
    if (req.forces_path)
        VKMD_TRY(energy_report_write_forces(&req, &sys, forces));
    exit_code = 0;
cleanup:
    if (exit_code != 0)
        tool_error("energy", res);
    free(forces);
    vkmd_system_destroy(&sys);
    return exit_code;
}
