/* The UFF energy report of `vkmd uff energy` (see uff_energy_report.h). */
#include "io/uff_energy_report.h"

#include "core/json_write.h"
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
