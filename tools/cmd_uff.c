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
 * replica (--debug-replica K). Typing and terms follow RDKit 2022.09's UFF. */
#include "json.h"
#include "args.h"
#include "cmd_uff_relax.h"
#include "commands.h"
#include "system/uff_molecule.h"
#include "io/uff_conformations.h"
#include "io/uff_load.h"
#include "io/uff_record_setup.h"
#include "system/uff_terms.h"
#include "uff_eval.h"
#include "uff_surface_cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCAN_DEFAULT_REPLICAS 1024

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

typedef struct term_row {
    const char *key, *label;
    double value;
} term_row;

static void rows_of(const vkmd_uff_energy *e, term_row r[7])
{
    term_row t[7] = {{"bond", "bond stretch", e->bond},  {"angle", "angle bend", e->angle},
                     {"torsion", "torsion", e->torsion}, {"inversion", "inversion", e->inversion},
                     {"vdw", "van der Waals", e->vdw},   {"coulomb", "Coulomb", e->coulomb},
                     {"total", "total", e->total}};
    memcpy(r, t, sizeof t);
}

static void json_energy(FILE *out, const vkmd_uff_energy *e)
{
    term_row rows[7];
    rows_of(e, rows);
    fputc('{', out);
    for (int k = 0; k < 7; ++k)
        fprintf(out, "%s\"%s_kcal_per_mol\": %.10f", k ? ", " : "", rows[k].key, rows[k].value);
    fputc('}', out);
}

static void force_stats(const double *f, int32_t n, double *out_max, double *out_rms)
{
    double fmax2 = 0, fsum2 = 0;
    for (int32_t a = 0; a < n; ++a) {
        double f2 = f[3 * a] * f[3 * a] + f[3 * a + 1] * f[3 * a + 1] + f[3 * a + 2] * f[3 * a + 2];
        fmax2 = fmax(fmax2, f2);
        fsum2 += f2;
    }
    *out_max = sqrt(fmax2);
    *out_rms = sqrt(fsum2 / n);
}

static void write_forces(FILE *ff, const char *what, int32_t n, const double *f)
{
    fprintf(ff, "# %s, %d atoms\n", what, n);
    for (int32_t a = 0; a < n; ++a)
        fprintf(ff, "%d %.10e %.10e %.10e\n", a + 1, f[3 * a], f[3 * a + 1], f[3 * a + 2]);
}

/* Prints one record of `vkmd uff energy` with its conformers' results. */
static void print_record(const uff_request *req, int32_t index, const vkmd_uff_molecule *m,
                         const vkmd_uff_typing *ty, const vkmd_uff_terms *terms,
                         const vkmd_uff_energy *e, double *const *f, FILE *forces_file, int first)
{
    FILE *out = stdout;
    if (req->json) {
        fprintf(out, "%s    {\n      \"record\": %d,\n      \"name\": ", first ? "" : ",\n",
                index + 1);
        json_string(out, m->name);
        fprintf(out, ",\n      \"source\": ");
        json_string(out, m->source);
        fprintf(out,
                ",\n      \"n_atoms\": %d,\n      \"n_bonds\": %d,\n      \"n_terms\": {\"bond\": "
                "%d, \"angle\": %d, \"torsion\": %d, \"inversion\": %d, \"pair\": %d},\n",
                m->atom_count, m->bond_count, terms->bond_count, terms->angle_count,
                terms->torsion_count, terms->inversion_count, terms->pair_count);
        fprintf(out, "      \"types\": [");
        for (int32_t a = 0; a < m->atom_count; ++a)
            fprintf(out, "%s\"%s\"", a ? ", " : "", ty->label[a]);
        fprintf(out, "],\n      \"hybridization\": [");
        for (int32_t a = 0; a < m->atom_count; ++a)
            fprintf(out, "%s\"%s\"", a ? ", " : "",
                    vkmd_uff_hybridization_name(ty->perception.hyb[a]));
        fprintf(out, "],\n      \"conformers\": [\n");
    } else {
        fprintf(out,
                "%srecord %d \"%s\" (%s): %d atoms, %d bonds, %d conformer(s); terms: %d "
                "bond, %d angle, %d torsion, %d inversion, %d pair\n",
                first ? "" : "\n", index + 1, m->name, m->source, m->atom_count, m->bond_count,
                m->conformer_count, terms->bond_count, terms->angle_count, terms->torsion_count,
                terms->inversion_count, terms->pair_count);
        if (req->types)
            for (int32_t a = 0; a < m->atom_count; ++a)
                fprintf(out, "  atom %4d  %-6s %s%s\n", a + 1, ty->label[a],
                        vkmd_uff_hybridization_name(ty->perception.hyb[a]),
                        ty->perception.aromatic[a] ? " aromatic" : "");
    }
    for (int32_t c = 0; c < m->conformer_count; ++c) {
        term_row rows[7];
        rows_of(&e[c], rows);
        double fmax, frms;
        force_stats(f[c], m->atom_count, &fmax, &frms);
        if (req->json) {
            fprintf(out, "%s        {\n          \"conformer\": %d,\n          \"energy\": ",
                    c ? ",\n" : "", c + 1);
            json_energy(out, &e[c]);
            fprintf(out, ",\n          \"forces_kcal_per_mol_per_a\": [");
            for (int32_t a = 0; a < m->atom_count; ++a)
                fprintf(out, "%s[%.10e, %.10e, %.10e]", a ? ", " : "", f[c][3 * a], f[c][3 * a + 1],
                        f[c][3 * a + 2]);
            fprintf(out, "]\n        }");
        } else {
            if (m->conformer_count > 1)
                fprintf(out, "conformer %d\n", c + 1);
            fprintf(out, "  %-24s %18s\n", "term", "kcal/mol");
            for (int k = 0; k < 7; ++k) {
                if (k == 5 && !terms->coulomb)
                    fprintf(out, "  %-24s %18s\n", rows[k].label, "off (no charges)");
                else
                    fprintf(out, "  %-24s %18.6f\n", rows[k].label, rows[k].value);
            }
            fprintf(out, "  forces (kcal/mol/A): max |F| %.6f, rms |F| %.6f\n", fmax, frms);
            fprintf(out, "  %6s %-6s %14s %14s %14s\n", "atom", "type", "fx", "fy", "fz");
            for (int32_t a = 0; a < m->atom_count; ++a)
                fprintf(out, "  %6d %-6s %14.6f %14.6f %14.6f\n", a + 1, ty->label[a], f[c][3 * a],
                        f[c][3 * a + 1], f[c][3 * a + 2]);
        }
        if (forces_file) {
            char what[192];
            snprintf(what, sizeof what, "record %d \"%.100s\" conformer %d", index + 1, m->name,
                     c + 1);
            write_forces(forces_file, what, m->atom_count, f[c]);
        }
    }
    if (req->json)
        fprintf(out, "\n      ]\n    }");
}

static int parse_args(int argc, char **argv, uff_request *req)
{
    vkmd_result r = VKMD_OK;
    const char *cmd = req->scan ? "uff scan" : "uff energy";
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i], *v = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--device")) {
            ARGS_VALUE();
            req->device = v;
        } else if (!strcmp(a, "--json")) {
            req->json = 1;
        } else if (!strcmp(a, "--types") && !req->scan) {
            req->types = 1;
        } else if (!strcmp(a, "--forces")) {
            ARGS_VALUE();
            req->forces_path = v;
        } else if (!strcmp(a, "--charges")) {
            ARGS_VALUE();
            req->charges_path = v;
        } else if (!strcmp(a, "--confs") && req->scan) {
            ARGS_VALUE();
            req->confs_path = v;
        } else if (!strcmp(a, "--replicas")) {
            ARGS_VALUE();
            if (v)
                r = args_int(a, v, 1, 1 << 24, &req->replicas);
        } else if (!strcmp(a, "--debug-replica")) {
            ARGS_VALUE();
            if (v)
                r = args_int(a, v, 1, INT32_MAX, &req->debug_replica);
        } else if (!strcmp(a, "--dielectric")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-3, 1e6, &req->desc.dielectric);
        } else if (!strcmp(a, "--include-interfragment")) {
            req->desc.include_interfragment = 1;
        } else if (!req->scan && uff_surface_parse_arg(argc, argv, &i, &req->surface, &r)) {
            /* a surface option, consumed */
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

static vkmd_result open_forces_file(const uff_request *req, const uff_eval *ev, FILE **out)
{
    *out = NULL;
    if (!req->forces_path)
        return VKMD_OK;
    FILE *ff = fopen(req->forces_path, "w");
    if (!ff)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open for writing: %s", req->forces_path,
                         strerror(errno));
    fprintf(ff, "# vkmd uff forces of %s, units kcal/mol/A, device %s\n# atom fx fy fz\n",
            req->molecule, ev->device);
    *out = ff;
    return VKMD_OK;
}

static vkmd_result close_outputs(const uff_request *req, FILE **ff)
{
    if (*ff) {
        int bad = ferror(*ff);
        int closed = fclose(*ff);
        *ff = NULL;
        if (bad || closed != 0)
            return vkmd_fail(VKMD_ERROR_IO, "%s: writing forces failed", req->forces_path);
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        return vkmd_fail(VKMD_ERROR_IO, "writing the report failed");
    return VKMD_OK;
}

static vkmd_result check_debug_range(const uff_request *req, int32_t replicas)
{
    if (req->debug_replica > replicas)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--debug-replica %d: there are %d replicas (1..%d)", req->debug_replica,
                         replicas, replicas);
    return VKMD_OK;
}

/* The debug section after the results: text table or a JSON member. */
static void print_debug(const uff_request *req, const uff_eval *ev, const char *what,
                        const vkmd_uff_debug_record *dbg, int32_t count,
                        char (*labels)[VKMD_UFF_LABEL_MAX])
{
    if (req->json) {
        printf(",\n  \"debug\": {\"replica\": %d, \"of\": ", req->debug_replica);
        json_string(stdout, what);
        printf(", \"interactions\": ");
        uff_eval_print_debug(stdout, dbg, count, labels, 1, 2);
        printf("}");
    } else {
        printf("\nper-interaction details of replica %d (%s), computed on %s: %d terms\n",
               req->debug_replica, what, ev->device, count);
        uff_eval_print_debug(stdout, dbg, count, labels, 0, 0);
    }
}

static int uff_energy(int argc, char **argv)
{
    uff_request req;
    memset(&req, 0, sizeof req);
    uff_surface_request_init(&req.surface);
    req.device = "cpu";
    int early = parse_args(argc, argv, &req);
    if (early >= 0)
        return early;

    vkmd_result res = VKMD_OK;
    vkmd_uff_molecule *recs = NULL;
    int32_t count = 0, nrep = 0;
    vkmd_uff_record_setup setups = {0};
    uff_eval ev;
    memset(&ev, 0, sizeof ev);
    vkmd_uff_replica *reps = NULL;
    vkmd_uff_energy *energy = NULL;
    double *force_data = NULL, **forces = NULL;
    vkmd_uff_debug_record *dbg = NULL;
    int32_t dbg_count = 0;
    FILE *ff = NULL;
    double *surf_e = NULL;
    int32_t *surf_below = NULL;
    char surf_desc[512] = "";
    int exit_code = 1;
    VKMD_TRY(vkmd_uff_molecule_load(req.molecule, &recs, &count));
    VKMD_TRY(vkmd_uff_record_setup_build(recs, count, req.charges_path, &req.desc, &setups));
    size_t natoms = 0;
    for (int32_t k = 0; k < count; ++k) {
        nrep += recs[k].conformer_count;
        natoms += (size_t)recs[k].conformer_count * (size_t)recs[k].atom_count;
    }
    if ((res = check_debug_range(&req, nrep)) != VKMD_OK) {
        exit_code = 2;
        goto cleanup;
    }
    reps = calloc((size_t)nrep, sizeof *reps);
    energy = calloc((size_t)nrep, sizeof *energy);
    forces = calloc((size_t)nrep, sizeof *forces);
    force_data = calloc(3 * natoms, sizeof *force_data);
    if (!reps || !energy || !forces || !force_data) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "results of %d conformers", nrep);
        goto cleanup;
    }
    for (int32_t k = 0, r = 0, at = 0; k < count; ++k) {
        for (int32_t c = 0; c < recs[k].conformer_count; ++c, ++r) {
            reps[r] = (vkmd_uff_replica){k, vkmd_uff_molecule_conformer(&recs[k], c)};
            forces[r] = force_data + 3 * (size_t)at;
            at += recs[k].atom_count;
        }
    }
    VKMD_TRY(uff_eval_open(req.device, &ev));
    ev.replicas_per_batch = req.replicas;
    ev.debug_replica = req.debug_replica - 1;
    VKMD_TRY(
        uff_eval_run(&ev, setups.terms_of, count, reps, nrep, energy, forces, &dbg, &dbg_count));
    if (req.surface.spec) {
        surf_e = calloc((size_t)nrep, sizeof *surf_e);
        surf_below = calloc((size_t)nrep, sizeof *surf_below);
        if (!surf_e || !surf_below) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface results");
            goto cleanup;
        }
        VKMD_TRY(uff_surface_run(&req.surface, &ev, setups.typing_of, setups.terms_of, count, reps,
                                 nrep, forces, surf_e, surf_below, surf_desc, sizeof surf_desc));
    }
    VKMD_TRY(open_forces_file(&req, &ev, &ff));

    if (req.json) {
        printf("{\n  \"units\": {\"energy\": \"kcal/mol\", \"force\": \"kcal/mol/angstrom\", "
               "\"length\": \"angstrom\"},\n");
        printf("  \"vkmd_version\": \"%s\",\n  \"commit\": \"%s\",\n  \"molecule\": ", VKMD_VERSION,
               VKMD_GIT_COMMIT);
        json_string(stdout, req.molecule);
        printf(",\n  \"device\": ");
        json_string(stdout, ev.device);
        printf(",\n  \"replicas\": %d,\n  \"dispatches\": %d,\n"
               "  \"force_field\": \"UFF (Rappe et al. 1992), typing as RDKit 2022.09\",\n"
               "  \"include_interfragment\": %s,\n  \"coulomb\": %s,\n"
               "  \"dielectric\": %g,\n  \"records\": [\n",
               nrep, ev.batches, req.desc.include_interfragment ? "true" : "false",
               req.charges_path ? "true" : "false",
               req.desc.dielectric > 0 ? req.desc.dielectric : 1.0);
    } else {
        printf("vkmd uff energy: %s, %d record(s), device %s", req.molecule, count, ev.device);
        if (ev.ctx)
            printf("; %d replica(s) in %d dispatch(es)", nrep, ev.batches);
        printf("\nUFF (Rappe et al. 1992), typing as RDKit 2022.09; van der Waals between "
               "fragments %s\n\n",
               req.desc.include_interfragment ? "included" : "left out (as RDKit)");
    }
    for (int32_t k = 0, r = 0; k < count; r += recs[k].conformer_count, ++k)
        print_record(&req, k, &recs[k], &setups.typing[k], &setups.terms[k], energy + r, forces + r,
                     ff, k == 0);
    if (req.json)
        printf("\n  ]");
    if (req.surface.spec)
        uff_surface_print(&req.surface, surf_desc, surf_e, surf_below, energy, nrep, req.json);
    if (dbg) {
        int32_t r = req.debug_replica - 1, k = reps[r].molecule;
        int32_t c = r;
        for (int32_t j = 0; j < k; ++j)
            c -= recs[j].conformer_count;
        char what[192];
        snprintf(what, sizeof what, "record %d \"%.100s\" conformer %d", k + 1, recs[k].name,
                 c + 1);
        print_debug(&req, &ev, what, dbg, dbg_count, setups.typing[k].label);
    }
    if (req.json)
        printf("\n}\n");
    VKMD_TRY(close_outputs(&req, &ff));
    VKMD_TRY(uff_eval_close(&ev));
    exit_code = 0;
cleanup:
    if (exit_code != 0) {
        fflush(stdout);
        tool_error("uff energy", res);
    }
    if (ff)
        fclose(ff);
    uff_eval_close(&ev);
    free(dbg);
    free(surf_e);
    free(surf_below);
    free(reps);
    free(energy);
    free(forces);
    free(force_data);
    vkmd_uff_record_setup_free(&setups);
    vkmd_uff_molecule_array_free(recs, count);
    return exit_code;
}

static int uff_scan(int argc, char **argv)
{
    uff_request req;
    memset(&req, 0, sizeof req);
    req.scan = 1;
    req.device = "auto";
    int early = parse_args(argc, argv, &req);
    if (early >= 0)
        return early;

    vkmd_result res = VKMD_OK;
    vkmd_uff_molecule *recs = NULL, *confs = NULL;
    int32_t count = 0, nconf = 0, n = 0;
    vkmd_uff_record_setup setup = {0};
    uff_eval ev;
    memset(&ev, 0, sizeof ev);
    vkmd_uff_replica *reps = NULL;
    vkmd_uff_energy *energy = NULL;
    double *force_data = NULL, **forces = NULL;
    vkmd_uff_debug_record *dbg = NULL;
    int32_t dbg_count = 0;
    FILE *ff = NULL;
    int exit_code = 1;
    VKMD_TRY(vkmd_uff_molecule_load(req.molecule, &recs, &count));
    if (count != 1) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "%s has %d records; scan takes one molecule (its conformations come "
                        "from --confs)",
                        req.molecule, count);
        goto cleanup;
    }
    VKMD_TRY(vkmd_uff_record_setup_build(recs, 1, req.charges_path, &req.desc, &setup));
    VKMD_TRY(
        vkmd_uff_conformations_load(req.confs_path, &recs[0], req.molecule, &confs, &nconf, &n));
    reps = calloc((size_t)n, sizeof *reps);
    if (!reps) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d conformations", n);
        goto cleanup;
    }
    vkmd_uff_conformations_replicas(confs, nconf, reps);
    if ((res = check_debug_range(&req, n)) != VKMD_OK) {
        exit_code = 2;
        goto cleanup;
    }
    const int32_t na = recs[0].atom_count;
    energy = calloc((size_t)n, sizeof *energy);
    if (req.forces_path) {
        forces = calloc((size_t)n, sizeof *forces);
        force_data = calloc(3 * (size_t)n * (size_t)na, sizeof *force_data);
        for (int32_t r = 0; forces && force_data && r < n; ++r)
            forces[r] = force_data + 3 * (size_t)r * na;
    }
    if (!energy || (req.forces_path && (!forces || !force_data))) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "results of %d conformations", n);
        goto cleanup;
    }
    VKMD_TRY(uff_eval_open(req.device, &ev));
    ev.replicas_per_batch = req.replicas ? req.replicas : SCAN_DEFAULT_REPLICAS;
    ev.debug_replica = req.debug_replica - 1;
    VKMD_TRY(uff_eval_run(&ev, setup.terms_of, 1, reps, n, energy, forces, &dbg, &dbg_count));
    VKMD_TRY(open_forces_file(&req, &ev, &ff));

    const int32_t per = ev.replicas_per_batch < n ? ev.replicas_per_batch : n;
    const vkmd_uff_terms *t = &setup.terms[0];
    if (req.json) {
        printf("{\n  \"units\": {\"energy\": \"kcal/mol\", \"force\": \"kcal/mol/angstrom\", "
               "\"length\": \"angstrom\"},\n");
        printf("  \"vkmd_version\": \"%s\",\n  \"commit\": \"%s\",\n  \"molecule\": ", VKMD_VERSION,
               VKMD_GIT_COMMIT);
        json_string(stdout, req.molecule);
        printf(",\n  \"name\": ");
        json_string(stdout, recs[0].name);
        printf(",\n  \"confs\": ");
        json_string(stdout, req.confs_path);
        printf(",\n  \"device\": ");
        json_string(stdout, ev.device);
        printf(",\n  \"force_field\": \"UFF (Rappe et al. 1992), typing as RDKit 2022.09\",\n"
               "  \"n_atoms\": %d,\n  \"n_terms\": {\"bond\": %d, \"angle\": %d, \"torsion\": %d, "
               "\"inversion\": %d, \"pair\": %d},\n  \"coulomb\": %s,\n  \"n_conformations\": "
               "%d,\n  \"replicas_per_dispatch\": %d,\n  \"dispatches\": %d,\n"
               "  \"conformations\": [",
               na, t->bond_count, t->angle_count, t->torsion_count, t->inversion_count,
               t->pair_count, t->coulomb ? "true" : "false", n, ev.ctx ? per : 0, ev.batches);
    } else {
        printf("vkmd uff scan: %s \"%s\" (%d atoms; terms: %d bond, %d angle, %d torsion, %d "
               "inversion, %d pair), %d conformation(s) from %s\n",
               req.molecule, recs[0].name, na, t->bond_count, t->angle_count, t->torsion_count,
               t->inversion_count, t->pair_count, n, req.confs_path);
        printf("device %s", ev.device);
        if (ev.ctx)
            printf("; %d dispatch(es) of up to %d replicas", ev.batches, per);
        printf("\nUFF (Rappe et al. 1992), typing as RDKit 2022.09; energies in kcal/mol\n\n");
        printf("  %6s %14s %14s %14s %14s %14s %14s %16s\n", "conf", "bond", "angle", "torsion",
               "inversion", "vdW", "Coulomb", "total");
    }
    for (int32_t r = 0; r < n; ++r) {
        int32_t k, c;
        vkmd_uff_conformation(confs, r, &k, &c);
        const vkmd_uff_energy *e = &energy[r];
        if (req.json) {
            printf("%s\n    {\"conformation\": %d, \"record\": %d, \"conformer\": %d, \"energy\": ",
                   r ? "," : "", r + 1, k + 1, c + 1);
            json_energy(stdout, e);
            printf("}");
        } else {
            printf("  %6d %14.6f %14.6f %14.6f %14.6f %14.6f %14.6f %16.6f\n", r + 1, e->bond,
                   e->angle, e->torsion, e->inversion, e->vdw, e->coulomb, e->total);
        }
        if (ff) {
            char what[96];
            snprintf(what, sizeof what, "conformation %d (record %d, conformer %d)", r + 1, k + 1,
                     c + 1);
            write_forces(ff, what, na, forces[r]);
        }
    }
    if (req.json)
        printf("\n  ]");
    if (dbg) {
        int32_t k, c;
        vkmd_uff_conformation(confs, req.debug_replica - 1, &k, &c);
        char what[96];
        snprintf(what, sizeof what, "conformation %d: record %d, conformer %d", req.debug_replica,
                 k + 1, c + 1);
        print_debug(&req, &ev, what, dbg, dbg_count, setup.typing[0].label);
    }
    if (req.json)
        printf("\n}\n");
    VKMD_TRY(close_outputs(&req, &ff));
    VKMD_TRY(uff_eval_close(&ev));
    exit_code = 0;
cleanup:
    if (exit_code != 0) {
        fflush(stdout);
        tool_error("uff scan", res);
    }
    if (ff)
        fclose(ff);
    uff_eval_close(&ev);
    free(dbg);
    free(reps);
    free(energy);
    free(forces);
    free(force_data);
    vkmd_uff_record_setup_free(&setup);
    vkmd_uff_molecule_array_free(confs, nconf);
    vkmd_uff_molecule_array_free(recs, count);
    return exit_code;
}

int cmd_uff(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "energy"))
        return uff_energy(argc - 1, argv + 1);
    if (!strcmp(argv[1], "scan"))
        return uff_scan(argc - 1, argv + 1);
    if (!strcmp(argv[1], "relax"))
        return cmd_uff_relax(argc - 1, argv + 1);
    if (!strcmp(argv[1], "md"))
        return cmd_uff_md(argc - 1, argv + 1);
    fprintf(stderr, "vkmd uff: unknown subcommand '%s' (expected: energy, scan, relax, md)\n\n",
            argv[1]);
    usage(stderr);
    return 2;
}
