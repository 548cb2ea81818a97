/* vkmd uff energy: UFF energy per term and per-atom forces of every record
 * and conformer of a molecule file or built-in molecule, on the CPU
 * double-precision reference (--device cpu, the only device for UFF until
 * the GPU UFF pass exists). Typing and terms follow RDKit 2022.09's UFF. */
#include "args.h"
#include "commands.h"
#include "ref/ref_uff.h"
#include "uff/uff_molecule.h"
#include "uff/uff_terms.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct uff_request {
    const char *molecule;
    const char *device;
    const char *forces_path;
    const char *charges_path;
    int json;
    int types;
    vkmd_uff_terms_desc desc;
} uff_request;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vkmd uff energy MOL [options]\n"
            "  MOL                  built-in molecule (formic-acid, xylitol), an SDF/MOL V2000\n"
            "                       file (every record), or an XYZ file (bonds from covalent\n"
            "                       radii, orders from standard valences; frames are conformers)\n"
            "  --device cpu         cpu = the double-precision reference (default). It is the\n"
            "                       only device for UFF so far: the GPU UFF path comes later\n"
            "  --json               one JSON object on stdout (keys carry their units)\n"
            "  --forces FILE        write per-atom forces (kcal/mol/A) of every conformer\n"
            "  --types              print each atom's UFF type and hybridisation\n"
            "  --charges FILE       partial charges (e), one per atom: adds a Coulomb term\n"
            "                       (UFF as RDKit has none); applied to every record\n"
            "  --dielectric EPS     Coulomb dielectric constant (default 1)\n"
            "  --include-interfragment  van der Waals (and Coulomb) between separate\n"
            "                       fragments too; RDKit's default, kept here, leaves them out\n"
            "Typing and terms follow RDKit 2022.09's UFF; energies in kcal/mol.\n");
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(out, "\\u%04x", *s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
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

/* Evaluates every conformer of one record and prints it. */
static vkmd_result run_record(const uff_request *req, int32_t index, vkmd_uff_molecule *m,
                              FILE *forces_file, int first)
{
    vkmd_uff_typing ty;
    vkmd_uff_terms terms;
    memset(&ty, 0, sizeof ty);
    memset(&terms, 0, sizeof terms);
    double *f = NULL;
    vkmd_result res = VKMD_OK;
    if (req->charges_path)
        VKMD_TRY(vkmd_uff_molecule_read_charges(req->charges_path, m));
    VKMD_TRY(vkmd_uff_setup(m, &req->desc, &ty, &terms));
    f = calloc((size_t)m->atom_count * 3, sizeof *f);
    if (!f) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "no memory for %d forces", m->atom_count);
        goto cleanup;
    }
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
                m->atom_count, m->bond_count, terms.bond_count, terms.angle_count,
                terms.torsion_count, terms.inversion_count, terms.pair_count);
        fprintf(out, "      \"types\": [");
        for (int32_t a = 0; a < m->atom_count; ++a)
            fprintf(out, "%s\"%s\"", a ? ", " : "", ty.label[a]);
        fprintf(out, "],\n      \"hybridization\": [");
        for (int32_t a = 0; a < m->atom_count; ++a)
            fprintf(out, "%s\"%s\"", a ? ", " : "",
                    vkmd_uff_hybridization_name(ty.perception.hyb[a]));
        fprintf(out, "],\n      \"conformers\": [\n");
    } else {
        fprintf(out,
                "%srecord %d \"%s\" (%s): %d atoms, %d bonds, %d conformer(s); terms: %d "
                "bond, %d angle, %d torsion, %d inversion, %d pair\n",
                first ? "" : "\n", index + 1, m->name, m->source, m->atom_count, m->bond_count,
                m->conformer_count, terms.bond_count, terms.angle_count, terms.torsion_count,
                terms.inversion_count, terms.pair_count);
        if (req->types)
            for (int32_t a = 0; a < m->atom_count; ++a)
                fprintf(out, "  atom %4d  %-6s %s%s\n", a + 1, ty.label[a],
                        vkmd_uff_hybridization_name(ty.perception.hyb[a]),
                        ty.perception.aromatic[a] ? " aromatic" : "");
    }
    for (int32_t c = 0; c < m->conformer_count; ++c) {
        vkmd_uff_energy e;
        VKMD_TRY(vkmd_ref_uff_compute(&terms, vkmd_uff_molecule_conformer(m, c), &e, f));
        term_row rows[7];
        rows_of(&e, rows);
        double fmax2 = 0, fsum2 = 0;
        for (int32_t a = 0; a < m->atom_count; ++a) {
            double f2 =
                f[3 * a] * f[3 * a] + f[3 * a + 1] * f[3 * a + 1] + f[3 * a + 2] * f[3 * a + 2];
            fmax2 = fmax(fmax2, f2);
            fsum2 += f2;
        }
        if (req->json) {
            fprintf(out, "%s        {\n          \"conformer\": %d,\n          \"energy\": {",
                    c ? ",\n" : "", c + 1);
            for (int k = 0; k < 7; ++k)
                fprintf(out, "%s\"%s_kcal_per_mol\": %.10f", k ? ", " : "", rows[k].key,
                        rows[k].value);
            fprintf(out, "},\n          \"forces_kcal_per_mol_per_a\": [");
            for (int32_t a = 0; a < m->atom_count; ++a)
                fprintf(out, "%s[%.10e, %.10e, %.10e]", a ? ", " : "", f[3 * a], f[3 * a + 1],
                        f[3 * a + 2]);
            fprintf(out, "]\n        }");
        } else {
            if (m->conformer_count > 1)
                fprintf(out, "conformer %d\n", c + 1);
            fprintf(out, "  %-24s %18s\n", "term", "kcal/mol");
            for (int k = 0; k < 7; ++k) {
                if (k == 5 && !terms.coulomb)
                    fprintf(out, "  %-24s %18s\n", rows[k].label, "off (no charges)");
                else
                    fprintf(out, "  %-24s %18.6f\n", rows[k].label, rows[k].value);
            }
            fprintf(out, "  forces (kcal/mol/A): max |F| %.6f, rms |F| %.6f\n", sqrt(fmax2),
                    sqrt(fsum2 / m->atom_count));
            fprintf(out, "  %6s %-6s %14s %14s %14s\n", "atom", "type", "fx", "fy", "fz");
            for (int32_t a = 0; a < m->atom_count; ++a)
                fprintf(out, "  %6d %-6s %14.6f %14.6f %14.6f\n", a + 1, ty.label[a], f[3 * a],
                        f[3 * a + 1], f[3 * a + 2]);
        }
        if (forces_file) {
            fprintf(forces_file, "# record %d \"%s\" conformer %d, %d atoms\n", index + 1, m->name,
                    c + 1, m->atom_count);
            for (int32_t a = 0; a < m->atom_count; ++a)
                fprintf(forces_file, "%d %.10e %.10e %.10e\n", a + 1, f[3 * a], f[3 * a + 1],
                        f[3 * a + 2]);
        }
    }
    if (req->json)
        fprintf(out, "\n      ]\n    }");
cleanup:
    free(f);
    vkmd_uff_terms_free(&terms);
    vkmd_uff_typing_free(&ty);
    return res;
}

static int uff_energy(int argc, char **argv)
{
    uff_request req;
    memset(&req, 0, sizeof req);
    req.device = "cpu";
    vkmd_result r = VKMD_OK;
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i], *v = NULL;
#define VALUE()                                                                                    \
    do {                                                                                           \
        if (!(v = args_value(argc, argv, &i)))                                                     \
            r = VKMD_ERROR_INVALID_ARGUMENT;                                                       \
    } while (0)
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--device")) {
            VALUE();
            req.device = v;
        } else if (!strcmp(a, "--json")) {
            req.json = 1;
        } else if (!strcmp(a, "--types")) {
            req.types = 1;
        } else if (!strcmp(a, "--forces")) {
            VALUE();
            req.forces_path = v;
        } else if (!strcmp(a, "--charges")) {
            VALUE();
            req.charges_path = v;
        } else if (!strcmp(a, "--dielectric")) {
            VALUE();
            if (v)
                r = args_double(a, v, 1e-3, 1e6, &req.desc.dielectric);
        } else if (!strcmp(a, "--include-interfragment")) {
            req.desc.include_interfragment = 1;
        } else if (a[0] == '-' && a[1]) {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown option '%s' (see vkmd uff --help)",
                          a);
        } else if (!req.molecule) {
            req.molecule = a;
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unexpected argument '%s'", a);
        }
#undef VALUE
    }
    if (r == VKMD_OK && !req.molecule)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no MOL given (see vkmd uff --help)");
    if (r == VKMD_OK && req.device && strcmp(req.device, "cpu") != 0)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                      "--device %s: only 'cpu' (the double-precision reference) computes UFF so "
                      "far; the GPU UFF path is not written yet",
                      req.device);
    if (r != VKMD_OK) {
        tool_error("uff energy", r);
        return 2;
    }

    vkmd_result res = VKMD_OK;
    vkmd_uff_molecule *recs = NULL;
    int32_t count = 0;
    FILE *ff = NULL;
    int exit_code = 1;
    VKMD_TRY(vkmd_uff_molecule_load(req.molecule, &recs, &count));
    if (req.forces_path) {
        ff = fopen(req.forces_path, "w");
        if (!ff) {
            res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot open for writing: %s", req.forces_path,
                            strerror(errno));
            goto cleanup;
        }
        fprintf(ff,
                "# vkmd uff forces of %s, units kcal/mol/A, device cpu (double-precision "
                "reference)\n# atom fx fy fz\n",
                req.molecule);
    }
    if (req.json) {
        printf("{\n  \"units\": {\"energy\": \"kcal/mol\", \"force\": \"kcal/mol/angstrom\", "
               "\"length\": \"angstrom\"},\n");
        printf("  \"vkmd_version\": \"%s\",\n  \"commit\": \"%s\",\n  \"molecule\": ", VKMD_VERSION,
               VKMD_GIT_COMMIT);
        json_string(stdout, req.molecule);
        printf(",\n  \"device\": \"cpu (double-precision reference)\",\n"
               "  \"force_field\": \"UFF (Rappe et al. 1992), typing as RDKit 2022.09\",\n"
               "  \"include_interfragment\": %s,\n  \"coulomb\": %s,\n"
               "  \"dielectric\": %g,\n  \"records\": [\n",
               req.desc.include_interfragment ? "true" : "false",
               req.charges_path ? "true" : "false",
               req.desc.dielectric > 0 ? req.desc.dielectric : 1.0);
    } else {
        printf("vkmd uff energy: %s, %d record(s), device cpu (double-precision reference)\n",
               req.molecule, count);
        printf("UFF (Rappe et al. 1992), typing as RDKit 2022.09; van der Waals between "
               "fragments %s\n\n",
               req.desc.include_interfragment ? "included" : "left out (as RDKit)");
    }
    for (int32_t k = 0; k < count; ++k)
        VKMD_TRY(run_record(&req, k, &recs[k], ff, k == 0));
    if (req.json)
        printf("\n  ]\n}\n");
    if (ff) {
        int bad = ferror(ff);
        int closed = fclose(ff);
        ff = NULL;
        if (bad || closed != 0) {
            res = vkmd_fail(VKMD_ERROR_IO, "%s: writing forces failed", req.forces_path);
            goto cleanup;
        }
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        res = vkmd_fail(VKMD_ERROR_IO, "writing the report failed");
        goto cleanup;
    }
    exit_code = 0;
cleanup:
    if (exit_code != 0) {
        fflush(stdout);
        tool_error("uff energy", res);
    }
    if (ff)
        fclose(ff);
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
    fprintf(stderr, "vkmd uff: unknown subcommand '%s' (expected: energy)\n\n", argv[1]);
    usage(stderr);
    return 2;
}
