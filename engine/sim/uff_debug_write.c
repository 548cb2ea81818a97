/* The per-interaction details of one UFF replica as text or JSON (see
 * uff_debug_write.h). */
#include "sim/uff_debug_write.h"
#include "system/uff_batch.h"

#include <string.h>

/* Atoms a term of `kind` names. */
static int kind_atoms(uint32_t kind)
{
    return kind == VKMD_UFF_KIND_ANGLE                                          ? 3
           : (kind == VKMD_UFF_KIND_TORSION || kind == VKMD_UFF_KIND_INVERSION) ? 4
                                                                                : 2;
}

static void indent_by(FILE *out, int n)
{
    fprintf(out, "%*s", n, "");
}

static const double rad_to_deg = 57.29577951308232;

void vkmd_uff_debug_write(FILE *out, const vkmd_uff_debug_record *recs, int32_t count,
                          char (*labels)[VKMD_UFF_LABEL_MAX], int json, int indent)
{
    if (json)
        fputs("[", out);
    int first = 1;
    for (int32_t n = 0; n < count; ++n) {
        const vkmd_uff_debug_record *d = &recs[n];
        if (d->info.z != 1)
            continue;
        const uint32_t kind = d->info.x;
        const uint32_t at[4] = {d->atoms.x, d->atoms.y, d->atoms.z, d->atoms.w};
        const int na = kind_atoms(kind);
        if (json) {
            fputs(first ? "\n" : ",\n", out);
            indent_by(out, indent + 2);
            fprintf(out, "{\"kind\": \"%s\", \"index\": %u, \"atoms\": [", vkmd_uff_kind_name(kind),
                    d->info.y + 1);
            for (int q = 0; q < na; ++q)
                fprintf(out, "%s%u", q ? ", " : "", at[q] + 1);
            fputs("], ", out);
            switch (kind) {
            case VKMD_UFF_KIND_BOND:
                fprintf(out,
                        "\"r_angstrom\": %.8f, \"r_minus_r0_angstrom\": %.8e, "
                        "\"energy_kcal_per_mol\": %.10e, \"de_dr_kcal_per_mol_per_angstrom\": "
                        "%.8e, ",
                        d->geom.x, d->geom.y, d->energy.x, d->energy.y);
                break;
            case VKMD_UFF_KIND_PAIR:
                fprintf(out,
                        "\"r_angstrom\": %.8f, \"within_vdw_threshold\": %s, "
                        "\"vdw_kcal_per_mol\": %.10e, \"coulomb_kcal_per_mol\": %.10e, "
                        "\"f_over_r_kcal_per_mol_per_angstrom2\": %.8e, ",
                        d->geom.x, d->geom.y != 0 ? "true" : "false", d->energy.x, d->energy.z,
                        d->energy.y + d->energy.w);
                break;
            default:
                fprintf(out,
                        "\"cos\": %.9f, \"sin\": %.9f, \"angle_degrees\": %.6f, "
                        "\"energy_kcal_per_mol\": %.10e, \"de_dcos_kcal_per_mol\": %.8e, ",
                        d->geom.x, d->geom.y, d->geom.z * rad_to_deg, d->energy.x, d->energy.y);
                if (kind != VKMD_UFF_KIND_ANGLE || d->info.w != 0)
                    fprintf(out, "\"%s\": %u, ",
                            kind == VKMD_UFF_KIND_INVERSION ? "form"
                            : kind == VKMD_UFF_KIND_TORSION ? "periodicity"
                                                            : "order",
                            d->info.w);
                break;
            }
            fputs("\"forces_kcal_per_mol_per_angstrom\": [", out);
            for (int q = 0; q < na; ++q)
                fprintf(out, "%s[%.8e, %.8e, %.8e]", q ? ", " : "", d->force[q].x, d->force[q].y,
                        d->force[q].z);
            fputs("]}", out);
        } else {
            if (first)
                fprintf(out, "  %-9s %5s  %-32s %-40s %16s  %s\n", "term", "#", "atoms", "geometry",
                        "E (kcal/mol)", "derivative; force on each atom (kcal/mol/A)");
            char atoms[96] = "", geom[96], deriv[64];
            for (int q = 0; q < na; ++q) {
                char one[24];
                if (labels)
                    snprintf(one, sizeof one, "%s%u(%s)", q ? "-" : "", at[q] + 1, labels[at[q]]);
                else
                    snprintf(one, sizeof one, "%s%u", q ? "-" : "", at[q] + 1);
                strncat(atoms, one, sizeof atoms - strlen(atoms) - 1);
            }
            double e = d->energy.x;
            switch (kind) {
            case VKMD_UFF_KIND_BOND:
                snprintf(geom, sizeof geom, "r %.6f A, r - r0 %+.3e A", d->geom.x, d->geom.y);
                snprintf(deriv, sizeof deriv, "dE/dr %+.6e kcal/mol/A", d->energy.y);
                break;
            case VKMD_UFF_KIND_PAIR:
                snprintf(geom, sizeof geom, "r %.6f A%s, vdW %+.6e", d->geom.x,
                         d->geom.y != 0 ? "" : " (beyond threshold)", d->energy.x);
                if (d->energy.z != 0)
                    snprintf(geom + strlen(geom), sizeof geom - strlen(geom), ", Coulomb %+.6e",
                             d->energy.z);
                e = d->energy.x + d->energy.z;
                snprintf(deriv, sizeof deriv, "-dE/dr/r %+.6e kcal/mol/A^2",
                         d->energy.y + d->energy.w);
                break;
            default:
                snprintf(geom, sizeof geom, "%s %.6f deg (cos %+.7f)",
                         kind == VKMD_UFF_KIND_ANGLE     ? "theta"
                         : kind == VKMD_UFF_KIND_TORSION ? "phi"
                                                         : "Y",
                         d->geom.z * rad_to_deg, d->geom.x);
                snprintf(deriv, sizeof deriv, "dE/dcos %+.6e kcal/mol", d->energy.y);
                break;
            }
            fprintf(out, "  %-9s %5u  %-32s %-40s %16.9f  %s;", vkmd_uff_kind_name(kind),
                    d->info.y + 1, atoms, geom, e, deriv);
            for (int q = 0; q < na; ++q)
                fprintf(out, " %u: (%+.6e, %+.6e, %+.6e)", at[q] + 1, d->force[q].x, d->force[q].y,
                        d->force[q].z);
            fputc('\n', out);
        }
        first = 0;
    }
    if (json) {
        fputc('\n', out);
        indent_by(out, indent);
        fputs("]", out);
    }
}
