/* The UFF energy report of `vkmd uff energy` (see uff_energy_report.h). */
#include "io/uff_energy_report.h"

#include "core/json_write.h"
#include "io/uff_conformations.h"
#include "io/uff_forces_file.h"

#include <math.h>
#include <string.h>

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

void vkmd_uff_energy_write_json(FILE *out, const vkmd_uff_energy *e)
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

void vkmd_uff_record_write(FILE *out, int json, int list_types, int32_t index,
                           const vkmd_uff_molecule *m, const vkmd_uff_typing *ty,
                           const vkmd_uff_terms *terms, const vkmd_uff_energy *e, double *const *f,
                           FILE *forces_file, int first)
{
    if (json) {
        fprintf(out, "%s    {\n      \"record\": %d,\n      \"name\": ", first ? "" : ",\n",
                index + 1);
        vkmd_json_write_string(out, m->name);
        fprintf(out, ",\n      \"source\": ");
        vkmd_json_write_string(out, m->source);
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
        if (list_types)
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
        if (json) {
            fprintf(out, "%s        {\n          \"conformer\": %d,\n          \"energy\": ",
                    c ? ",\n" : "", c + 1);
            vkmd_uff_energy_write_json(out, &e[c]);
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
            vkmd_uff_forces_file_write(forces_file, what, m->atom_count, f[c]);
        }
    }
    if (json)
        fprintf(out, "\n      ]\n    }");
}

void vkmd_uff_scan_write(FILE *out, int json, const vkmd_uff_molecule *confs,
                         const vkmd_uff_energy *e, int32_t n, int32_t atoms, double *const *f,
                         FILE *forces_file)
{
    if (!json)
        fprintf(out, "  %6s %14s %14s %14s %14s %14s %14s %16s\n", "conf", "bond", "angle",
                "torsion", "inversion", "vdW", "Coulomb", "total");
    for (int32_t r = 0; r < n; ++r) {
        int32_t k, c;
        vkmd_uff_conformation(confs, r, &k, &c);
        if (json) {
            fprintf(out,
                    "%s\n    {\"conformation\": %d, \"record\": %d, \"conformer\": %d, "
                    "\"energy\": ",
                    r ? "," : "", r + 1, k + 1, c + 1);
            vkmd_uff_energy_write_json(out, &e[r]);
            fputc('}', out);
        } else {
            fprintf(out, "  %6d %14.6f %14.6f %14.6f %14.6f %14.6f %14.6f %16.6f\n", r + 1,
                    e[r].bond, e[r].angle, e[r].torsion, e[r].inversion, e[r].vdw, e[r].coulomb,
                    e[r].total);
        }
        if (forces_file) {
            char what[96];
            snprintf(what, sizeof what, "conformation %d (record %d, conformer %d)", r + 1, k + 1,
                     c + 1);
            vkmd_uff_forces_file_write(forces_file, what, atoms, f[r]);
        }
    }
}

void vkmd_uff_surface_report_write(FILE *out, const char *desc, const double *energy,
                                   const int32_t *below, const vkmd_uff_energy *totals,
                                   int32_t count, int json)
{
    if (json) {
        fprintf(out, ",\n  \"surface\": {\n    \"description\": ");
        vkmd_json_write_string(out, desc);
        fprintf(out, ",\n    \"energies_kcal_per_mol\": [");
        for (int32_t r = 0; r < count; ++r)
            fprintf(out, "%s%.10g", r ? ", " : "", energy[r]);
        fprintf(out, "],\n    \"totals_with_surface_kcal_per_mol\": [");
        for (int32_t r = 0; r < count; ++r)
            fprintf(out, "%s%.10g", r ? ", " : "", totals[r].total + energy[r]);
        fprintf(out, "],\n    \"atoms_below_grid\": [");
        for (int32_t r = 0; r < count; ++r)
            fprintf(out, "%s%d", r ? ", " : "", below[r]);
        fprintf(out, "]\n  }");
        return;
    }
    fprintf(out, "surface: %s\n(forces above include the surface force)\n", desc);
    for (int32_t r = 0; r < count; ++r) {
        fprintf(out, "  replica %d: E_surface %14.6f kcal/mol, UFF + surface %14.6f kcal/mol",
                r + 1, energy[r], totals[r].total + energy[r]);
        if (below[r] > 0)
            fprintf(out, "  (%d atom(s) below the grid: evaluated at its lowest plane)", below[r]);
        fprintf(out, "\n");
    }
}
