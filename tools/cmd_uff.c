/* vkmd uff energy | scan: UFF energies per term and per-atom forces.
 *
 * energy: every record and conformer of a molecule file or built-in
 *   molecule, on the CPU double-precision reference (--device cpu, the
 *   default) or on a Vulkan device (--device N: every record and conformer is
 *   one replica of the multi-replica pass, forces/pass_uff.h).
 * scan: many conformations of one molecule (--confs: a multi-record SDF or
 *   multi-frame XYZ of the same atoms) in batches of --replicas replicas per
 *   dispatch; default device: the best Vulkan device, else the CPU.
 * Both can print what the device computed for each interaction of one
 * replica (--debug-replica K). energy --surface: the molecule above a
 * periodic substrate (engine/io/uff_surface_setup.h), evaluated on the same
 * device or the CPU reference. Typing and terms follow RDKit 2022.09's UFF. */
#include "core/json_write.h"
#include "eval/uff_eval.h"
#include "core/options.h"
#include "core/stop.h"
#include "cmd_uff_relax.h"
#include "commands.h"
#include "system/uff_molecule.h"
#include "io/uff_conformations.h"
#include "io/uff_energy_report.h"
#include "io/uff_forces_file.h"
#include "io/uff_load.h"
#include "io/uff_surface_setup.h"
#include "io/uff_record_setup.h"
#include "system/uff_terms.h"
#include "sim/uff_debug_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCAN_DEFAULT_REPLICAS 1024

/* energy --surface and its options */
typedef struct uff_surface_request {
    const char *spec;      /* --surface nacl|graphene|FILE.xyz; NULL: none */
    int mode;              /* --surface-mode: -1 unset (direct, or grid with a grid file) */
    int form;              /* --surface-form lj|morse: VKMD_UFF_SURFACE_FORM_* */
    double spacing;        /* --grid-spacing A; 0: 0.1 */
    double height;         /* --height A: lowest atom above the top layer; 0: 3.0 */
    const char *save_grid; /* --save-grid F.xsf */
    const char *load_grid; /* --load-grid F.xsf */
} uff_surface_request;

typedef struct uff_request {
    int scan;
    const char *molecule;
    const char *device;
    const char *forces_path;
    const char *charges_path;
    const char *confs_path;
    int json;
    int types;
    int replicas;      /* 0: default */
    int debug_replica; /* 1-based; 0: none */
    vkmd_uff_terms_desc desc;
    uff_surface_request surface; /* energy: --surface and its options */
} uff_request;

#define SURFACE_DEFAULT_HEIGHT 3.0

/* Consistency of the --surface options (surface options without --surface,
 * both grid files, a grid file in direct mode). */
static vkmd_result uff_surface_check(const uff_surface_request *req)
{
    if (!req->spec && (req->mode >= 0 || req->spacing > 0 || req->height > 0 || req->save_grid ||
                       req->load_grid || req->form))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "surface options need --surface nacl|graphene|FILE.xyz");
    if (req->save_grid && req->load_grid)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--save-grid and --load-grid exclude each other");
    if (req->mode == 0 && (req->save_grid || req->load_grid))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--save-grid/--load-grid need --surface-mode grid");
    if (req->load_grid && req->spacing > 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--grid-spacing is the loaded grid's own with --load-grid");
    return VKMD_OK;
}

static void uff_surface_usage(FILE *out)
{
    fprintf(out,
            "surface (energy): the molecule above a periodic substrate (x-y), UFF LJ pairs\n"
            "  --surface nacl|graphene|FILE.xyz  NaCl(001) 2 layers, graphene, or extended XYZ\n"
            "                       with Lattice=\"...\" (a, b in the x-y plane)\n"
            "  --surface-mode direct|grid  direct pair sums (default) or the potential grid\n"
            "                       (built on the device, tricubic B-spline interpolation)\n"
            "  --surface-form lj|morse  UFF LJ 12-6 (default) or Morse with the same well\n"
            "  --grid-spacing A     grid spacing (default 0.1)\n"
            "  --save-grid F.xsf | --load-grid F.xsf  XSF DATAGRID_3D, one grid per UFF type\n"
            "  --height A           lowest atom this far above the top layer (default 3.0)\n");
}

/* The surface setup of the --surface options (engine/eval/uff_eval.h
 * evaluates it on the device or the CPU reference). */
static vkmd_uff_surface_setup_desc uff_surface_desc(const uff_surface_request *req)
{
    return (vkmd_uff_surface_setup_desc){
        .spec = req->spec,
        .form = req->form,
        .grid = req->mode == 1 || (req->mode < 0 && (req->load_grid || req->save_grid)),
        .spacing_a = req->spacing,
        .load_grid = req->load_grid,
        .height_a = req->height > 0 ? req->height : SURFACE_DEFAULT_HEIGHT};
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vkmd uff energy MOL [options]\n"
            "       vkmd uff scan MOL --confs FILE [options]\n"
            "  MOL                  built-in molecule (formic-acid, xylitol), an SDF/MOL V2000\n"
            "                       file (every record), or an XYZ file (bonds from covalent\n"
            "                       radii, orders from standard valences; frames are conformers)\n"
            "energy: every record and conformer of MOL\n"
            "  --device cpu|N|NAME  cpu = the double-precision reference (default); N or a name\n"
            "                       substring: that Vulkan device (vkmd devices), where every\n"
            "                       record and conformer is one replica of one dispatch\n"
            "  --replicas R         replicas per dispatch on a Vulkan device (default: all)\n"
            "  --types              print each atom's UFF type and hybridisation\n"
            "scan: the conformations of FILE, typed and parameterised as MOL (one record)\n"
            "  --confs FILE         multi-record SDF or multi-frame XYZ with MOL's atoms in\n"
            "                       MOL's order; every record and conformer is a conformation\n"
            "  --device auto|cpu|N|NAME  auto (default): the best Vulkan device, or the CPU\n"
            "                       reference when there is none (the report names it)\n"
            "  --replicas R         conformations per dispatch (default %d)\n"
            "both:\n"
            "  --json               one JSON object on stdout (keys carry their units)\n"
            "  --forces FILE        write per-atom forces (kcal/mol/A) of every conformer\n"
            "  --debug-replica K    per-interaction details (geometry, energy, derivative,\n"
            "                       force on each atom) of replica K, 1-based in the printed\n"
            "                       order, as computed on the device (needs a Vulkan device)\n"
            "  --charges FILE       partial charges (e), one per atom: adds a Coulomb term\n"
            "                       (UFF as RDKit has none); applied to every record\n"
            "  --dielectric EPS     Coulomb dielectric constant (default 1)\n"
            "  --include-interfragment  van der Waals (and Coulomb) between separate\n"
            "                       fragments too; RDKit's default, kept here, leaves them out\n"
            "Typing and terms follow RDKit 2022.09's UFF; energies in kcal/mol. On a Vulkan\n"
            "device coordinates are rounded to float and the arithmetic is fp32: per-term\n"
            "energies within ~1e-6 relative of the reference for the same float coordinates\n"
            "(the rounding itself can move a relaxed bond term by ~1e-5 of its value);\n"
            "forces are summed in fixed point, so runs are bitwise repeatable.\n",
            SCAN_DEFAULT_REPLICAS);
    uff_surface_usage(out);
    cmd_uff_relax_usage(out);
}

static int parse_args(int argc, char **argv, uff_request *req)
{
    vkmd_result r = VKMD_OK;
    const char *cmd = req->scan ? "uff scan" : "uff energy";
    uff_surface_request *s = &req->surface;
    const vkmd_option both[] = {
        VKMD_OPT_STRING("--device", &req->device),
        VKMD_OPT_FLAG("--json", &req->json),
        VKMD_OPT_STRING("--forces", &req->forces_path),
        VKMD_OPT_STRING("--charges", &req->charges_path),
        VKMD_OPT_INT("--replicas", &req->replicas, 1, 1 << 24),
        VKMD_OPT_INT("--debug-replica", &req->debug_replica, 1, INT32_MAX),
        VKMD_OPT_DOUBLE("--dielectric", &req->desc.dielectric, 1e-3, 1e6),
        VKMD_OPT_FLAG("--include-interfragment", &req->desc.include_interfragment)};
    const vkmd_option energy[] = {VKMD_OPT_FLAG("--types", &req->types),
                                  VKMD_OPT_STRING("--surface", &s->spec),
                                  VKMD_OPT_CHOICE("--surface-mode", &s->mode, "direct|grid"),
                                  VKMD_OPT_CHOICE("--surface-form", &s->form, "lj|morse"),
                                  VKMD_OPT_DOUBLE("--grid-spacing", &s->spacing, 0.02, 2.0),
                                  VKMD_OPT_DOUBLE("--height", &s->height, 0.5, 50.0),
                                  VKMD_OPT_STRING("--save-grid", &s->save_grid),
                                  VKMD_OPT_STRING("--load-grid", &s->load_grid)};
    const vkmd_option scan[] = {VKMD_OPT_STRING("--confs", &req->confs_path)};
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (vkmd_options_parse(argc, argv, &i, both, VKMD_ARRAY_LEN(both), &r) ||
                   (req->scan
                        ? vkmd_options_parse(argc, argv, &i, scan, VKMD_ARRAY_LEN(scan), &r)
                        : vkmd_options_parse(argc, argv, &i, energy, VKMD_ARRAY_LEN(energy), &r))) {
            /* consumed */
        } else if (a[0] == '-' && a[1]) {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                          "unknown option '%s' for vkmd %s (see vkmd uff --help)", a, cmd);
        } else if (!req->molecule) {
            req->molecule = a;
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unexpected argument '%s'", a);
        }
    }
    if (r == VKMD_OK && !req->scan)
        r = uff_surface_check(&req->surface);
    if (r == VKMD_OK && !req->molecule)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no MOL given (see vkmd uff --help)");
    if (r == VKMD_OK && req->scan && !req->confs_path)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                      "no --confs FILE given: the conformations to scan (see vkmd uff --help)");
    if (r == VKMD_OK && !*req->device)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "--device: empty device name");
    if (r == VKMD_OK && req->debug_replica && !strcmp(req->device, "cpu"))
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                      "--debug-replica shows what a Vulkan device computed; it needs --device N "
                      "(or a device name), not cpu");
    if (r == VKMD_OK && !req->scan && !strcmp(req->device, "auto"))
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                      "--device auto is for vkmd uff scan; energy takes cpu, N or a name");
    if (r != VKMD_OK) {
        tool_error(cmd, r);
        return 2;
    }
    return -1;
}

static vkmd_result close_outputs(const uff_request *req, FILE **ff)
{
    VKMD_TRY_RETURN(vkmd_uff_forces_file_close(ff, req->forces_path));
    if (fflush(stdout) != 0 || ferror(stdout))
        return vkmd_fail(VKMD_ERROR_IO, "writing the report failed");
    return VKMD_OK;
}

/* The debug section after the results: text table or a JSON member. */
static void print_debug(const uff_request *req, const vkmd_uff_eval *ev, const char *what,
                        const vkmd_uff_debug_record *dbg, int32_t count,
                        char (*labels)[VKMD_UFF_LABEL_MAX])
{
    if (req->json) {
        printf(",\n  \"debug\": {\"replica\": %d, \"of\": ", req->debug_replica);
        vkmd_json_write_string(stdout, what);
        printf(", \"interactions\": ");
        vkmd_uff_debug_write(stdout, dbg, count, labels, 1, 2);
        printf("}");
    } else {
        printf("\nper-interaction details of replica %d (%s), computed on %s: %d terms\n",
               req->debug_replica, what, ev->device, count);
        vkmd_uff_debug_write(stdout, dbg, count, labels, 0, 0);
    }
}

/* What one `vkmd uff energy|scan` run loaded and computed. */
typedef struct uff_job {
    vkmd_uff_molecule *recs, *confs; /* confs: scan only */
    int32_t count, nconf, n;         /* records, conformation records, replicas */
    vkmd_uff_record_setup setup;
    vkmd_uff_eval ev;
    vkmd_uff_replica *reps;
    vkmd_uff_energy *energy;
    double *force_data, **forces; /* scan: only with --forces */
    vkmd_uff_debug_record *dbg;
    int32_t dbg_count;
    double *surf_e;
    int32_t *surf_below;
    char surf_desc[512];
    int stopped; /* scan: the stop request's reason (vkmd_stop_requested) when it was cut short */
} uff_job;

/* energy: every record and conformer of MOL is a replica. */
static vkmd_result load_energy(const uff_request *req, uff_job *j)
{
    VKMD_TRY_RETURN(vkmd_uff_molecule_load(req->molecule, &j->recs, &j->count));
    VKMD_TRY_RETURN(
        vkmd_uff_record_setup_build(j->recs, j->count, req->charges_path, &req->desc, &j->setup));
    for (int32_t k = 0; k < j->count; ++k)
        j->n += j->recs[k].conformer_count;
    if (!(j->reps = calloc((size_t)j->n, sizeof *j->reps)))
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "results of %d conformers", j->n);
    for (int32_t k = 0, r = 0; k < j->count; ++k)
        for (int32_t c = 0; c < j->recs[k].conformer_count; ++c, ++r)
            j->reps[r] = (vkmd_uff_replica){k, vkmd_uff_molecule_conformer(&j->recs[k], c)};
    return VKMD_OK;
}

/* scan: MOL is one record; the conformations of --confs are the replicas. */
static vkmd_result load_scan(const uff_request *req, uff_job *j)
{
    VKMD_TRY_RETURN(vkmd_uff_molecule_load(req->molecule, &j->recs, &j->count));
    if (j->count != 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s has %d records; scan takes one molecule (its conformations come "
                         "from --confs)",
                         req->molecule, j->count);
    VKMD_TRY_RETURN(
        vkmd_uff_record_setup_build(j->recs, 1, req->charges_path, &req->desc, &j->setup));
    VKMD_TRY_RETURN(vkmd_uff_conformations_load(req->confs_path, &j->recs[0], req->molecule,
                                                &j->confs, &j->nconf, &j->n));
    if (!(j->reps = calloc((size_t)j->n, sizeof *j->reps)))
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d conformations", j->n);
    vkmd_uff_conformations_replicas(j->confs, j->nconf, j->reps);
    return VKMD_OK;
}

/* Result arrays, the evaluation and the surface. */
static vkmd_result evaluate(const uff_request *req, uff_job *j)
{
    size_t natoms = 0;
    for (int32_t r = 0; r < j->n; ++r)
        natoms += (size_t)j->recs[j->reps[r].molecule].atom_count;
    j->energy = calloc((size_t)j->n, sizeof *j->energy);
    if (!req->scan || req->forces_path) {
        j->forces = calloc((size_t)j->n, sizeof *j->forces);
        j->force_data = calloc(3 * natoms, sizeof *j->force_data);
        for (size_t r = 0, at = 0; j->forces && j->force_data && r < (size_t)j->n; ++r) {
            j->forces[r] = j->force_data + 3 * at;
            at += (size_t)j->recs[j->reps[r].molecule].atom_count;
        }
    }
    if (!j->energy || ((!req->scan || req->forces_path) && (!j->forces || !j->force_data)))
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "results of %d %s", j->n,
                         req->scan ? "conformations" : "conformers");
    VKMD_TRY_RETURN(vkmd_uff_eval_open(req->device, &j->ev));
    j->ev.replicas_per_batch = req->replicas || !req->scan ? req->replicas : SCAN_DEFAULT_REPLICAS;
    j->ev.debug_replica = req->debug_replica - 1;
    const vkmd_result res = vkmd_uff_eval_run(&j->ev, j->setup.terms_of, j->count, j->reps, j->n,
                                              j->energy, j->forces, &j->dbg, &j->dbg_count);
    if (res == VKMD_ERROR_STOPPED && req->scan && vkmd_stop_requested()) {
        j->stopped = vkmd_stop_requested(); /* the first ev.done are printed */
        return VKMD_OK;
    }
    VKMD_TRY_RETURN(res);
    if (!req->surface.spec)
        return VKMD_OK;
    j->surf_e = calloc((size_t)j->n, sizeof *j->surf_e);
    j->surf_below = calloc((size_t)j->n, sizeof *j->surf_below);
    if (!j->surf_e || !j->surf_below)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface results");
    const vkmd_uff_surface_setup_desc sd = uff_surface_desc(&req->surface);
    return vkmd_uff_eval_surface(&j->ev, &sd, req->surface.save_grid, j->setup.typing_of,
                                 j->setup.terms_of, j->count, j->reps, j->n, j->forces, j->surf_e,
                                 j->surf_below, j->surf_desc, sizeof j->surf_desc);
}

/* The JSON report's first members, common to energy and scan. */
static void json_head(const uff_request *req, const vkmd_uff_eval *ev)
{
    printf("{\n  \"units\": {\"energy\": \"kcal/mol\", \"force\": \"kcal/mol/angstrom\", "
           "\"length\": \"angstrom\"},\n");
    printf("  \"vkmd_version\": \"%s\",\n  \"commit\": \"%s\",\n  \"molecule\": ", VKMD_VERSION,
           VKMD_GIT_COMMIT);
    vkmd_json_write_string(stdout, req->molecule);
    if (!req->scan) {
        printf(",\n  \"device\": ");
        vkmd_json_write_string(stdout, ev->device);
    }
}

static void print_energy(const uff_request *req, uff_job *j, FILE *ff)
{
    if (req->json) {
        json_head(req, &j->ev);
        printf(",\n  \"replicas\": %d,\n  \"dispatches\": %d,\n"
               "  \"force_field\": \"UFF (Rappe et al. 1992), typing as RDKit 2022.09\",\n"
               "  \"include_interfragment\": %s,\n  \"coulomb\": %s,\n"
               "  \"dielectric\": %g,\n  \"records\": [\n",
               j->n, j->ev.batches, req->desc.include_interfragment ? "true" : "false",
               req->charges_path ? "true" : "false",
               req->desc.dielectric > 0 ? req->desc.dielectric : 1.0);
    } else {
        printf("vkmd uff energy: %s, %d record(s), device %s", req->molecule, j->count,
               j->ev.device);
        if (j->ev.ctx)
            printf("; %d replica(s) in %d dispatch(es)", j->n, j->ev.batches);
        printf("\nUFF (Rappe et al. 1992), typing as RDKit 2022.09; van der Waals between "
               "fragments %s\n\n",
               req->desc.include_interfragment ? "included" : "left out (as RDKit)");
    }
    for (int32_t k = 0, r = 0; k < j->count; r += j->recs[k].conformer_count, ++k)
        vkmd_uff_record_write(stdout, req->json, req->types, k, &j->recs[k], &j->setup.typing[k],
                              &j->setup.terms[k], j->energy + r, j->forces + r, ff, k == 0);
    if (req->json)
        printf("\n  ]");
    if (req->surface.spec)
        vkmd_uff_surface_report_write(stdout, j->surf_desc, j->surf_e, j->surf_below, j->energy,
                                      j->n, req->json);
    if (j->dbg) {
        int32_t r = req->debug_replica - 1, k = j->reps[r].molecule;
        int32_t c = r;
        for (int32_t q = 0; q < k; ++q)
            c -= j->recs[q].conformer_count;
        char what[192];
        snprintf(what, sizeof what, "record %d \"%.100s\" conformer %d", k + 1, j->recs[k].name,
                 c + 1);
        print_debug(req, &j->ev, what, j->dbg, j->dbg_count, j->setup.typing[k].label);
    }
}

static void print_scan(const uff_request *req, uff_job *j, FILE *ff)
{
    /* A stopped scan prints the conformations scanned (the first ones). */
    const int32_t n = j->stopped ? j->ev.done : j->n, na = j->recs[0].atom_count;
    const int32_t per = j->ev.replicas_per_batch < j->n ? j->ev.replicas_per_batch : j->n;
    const vkmd_uff_terms *t = &j->setup.terms[0];
    if (req->json) {
        json_head(req, &j->ev);
        printf(",\n  \"name\": ");
        vkmd_json_write_string(stdout, j->recs[0].name);
        printf(",\n  \"confs\": ");
        vkmd_json_write_string(stdout, req->confs_path);
        printf(",\n  \"device\": ");
        vkmd_json_write_string(stdout, j->ev.device);
        printf(",\n  \"force_field\": \"UFF (Rappe et al. 1992), typing as RDKit 2022.09\",\n"
               "  \"n_atoms\": %d,\n  \"n_terms\": {\"bond\": %d, \"angle\": %d, \"torsion\": %d, "
               "\"inversion\": %d, \"pair\": %d},\n  \"coulomb\": %s,\n  \"n_conformations\": "
               "%d,\n  \"replicas_per_dispatch\": %d,\n  \"dispatches\": %d,\n",
               na, t->bond_count, t->angle_count, t->torsion_count, t->inversion_count,
               t->pair_count, t->coulomb ? "true" : "false", j->n, j->ev.ctx ? per : 0,
               j->ev.batches);
        if (j->stopped)
            printf("  \"stopped\": \"%s\",\n  \"n_conformations_scanned\": %d,\n",
                   vkmd_stop_name(j->stopped), n);
        printf("  \"conformations\": [");
    } else {
        printf("vkmd uff scan: %s \"%s\" (%d atoms; terms: %d bond, %d angle, %d torsion, %d "
               "inversion, %d pair), %d conformation(s) from %s\n",
               req->molecule, j->recs[0].name, na, t->bond_count, t->angle_count, t->torsion_count,
               t->inversion_count, t->pair_count, j->n, req->confs_path);
        printf("device %s", j->ev.device);
        if (j->ev.ctx)
            printf("; %d dispatch(es) of up to %d replicas", j->ev.batches, per);
        printf("\nUFF (Rappe et al. 1992), typing as RDKit 2022.09; energies in kcal/mol\n\n");
    }
    vkmd_uff_scan_write(stdout, req->json, j->confs, j->energy, n, na, j->forces, ff);
    if (req->json)
        printf("\n  ]");
    if (j->dbg) {
        int32_t k, c;
        vkmd_uff_conformation(j->confs, req->debug_replica - 1, &k, &c);
        char what[96];
        snprintf(what, sizeof what, "conformation %d: record %d, conformer %d", req->debug_replica,
                 k + 1, c + 1);
        print_debug(req, &j->ev, what, j->dbg, j->dbg_count, j->setup.typing[0].label);
    }
}

static int uff_energy_or_scan(int argc, char **argv, int scan)
{
    uff_request req;
    memset(&req, 0, sizeof req);
    req.surface.mode = -1;
    req.scan = scan;
    req.device = scan ? "auto" : "cpu";
    int early = parse_args(argc, argv, &req);
    if (early >= 0)
        return early;

    uff_job j;
    memset(&j, 0, sizeof j);
    FILE *ff = NULL;
    int exit_code = 1;
    if (scan) /* a signal ends the scan between batches; what was scanned is printed */
        (void)vkmd_stop_catch_signals();
    vkmd_result res = scan ? load_scan(&req, &j) : load_energy(&req, &j);
    if (res == VKMD_OK && req.debug_replica > j.n) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "--debug-replica %d: there are %d replicas (1..%d)", req.debug_replica, j.n,
                        j.n);
        exit_code = 2;
    }
    if (res == VKMD_OK)
        res = evaluate(&req, &j);
    if (res == VKMD_OK && req.forces_path)
        res = vkmd_uff_forces_file_open(req.forces_path, req.molecule, j.ev.device, &ff);
    if (res == VKMD_OK) {
        (scan ? print_scan : print_energy)(&req, &j, ff);
        if (req.json)
            printf("\n}\n");
        res = close_outputs(&req, &ff);
    }
    if (res == VKMD_OK)
        res = vkmd_uff_eval_close(&j.ev);
    if (res == VKMD_OK) {
        exit_code = 0;
    } else {
        fflush(stdout);
        tool_error(scan ? "uff scan" : "uff energy", res);
    }
    if (res == VKMD_OK && j.stopped) {
        fflush(stdout);
        fprintf(stderr,
                "vkmd uff scan: stopped by %s: %d of %d conformations scanned and printed, the "
                "rest not run: scan them again to have them all\n",
                vkmd_stop_name(j.stopped), j.ev.done, j.n);
        exit_code = vkmd_stop_exit_code(j.stopped);
    }
    if (ff)
        fclose(ff);
    vkmd_uff_eval_close(&j.ev);
    free(j.dbg);
    free(j.surf_e);
    free(j.surf_below);
    free(j.reps);
    free(j.energy);
    free(j.forces);
    free(j.force_data);
    vkmd_uff_record_setup_free(&j.setup);
    vkmd_uff_molecule_array_free(j.confs, j.nconf);
    vkmd_uff_molecule_array_free(j.recs, j.count);
    return exit_code;
}

int cmd_uff(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "energy") || !strcmp(argv[1], "scan"))
        return uff_energy_or_scan(argc - 1, argv + 1, !strcmp(argv[1], "scan"));
    if (!strcmp(argv[1], "relax"))
        return cmd_uff_relax(argc - 1, argv + 1);
    if (!strcmp(argv[1], "md"))
        return cmd_uff_md(argc - 1, argv + 1);
    fprintf(stderr, "vkmd uff: unknown subcommand '%s' (expected: energy, scan, relax, md)\n\n",
            argv[1]);
    usage(stderr);
    return 2;
}
