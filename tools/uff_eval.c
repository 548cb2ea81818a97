/* Replica evaluation for the uff subcommands (see uff_eval.h): the CPU
 * reference one replica at a time, or the device batches of
 * sim/uff_replicas.h. */
#include "uff_eval.h"
#include "ref/ref_uff.h"
#include "system/uff_batch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

vkmd_result uff_eval_open(const char *device, uff_eval *out)
{
    return uff_eval_open_desc(device, NULL, out);
}

vkmd_result uff_eval_open_desc(const char *device, const vkmd_vk_context_desc *base, uff_eval *out)
{
    memset(out, 0, sizeof *out);
    out->debug_replica = -1;
    if (!strcmp(device, "cpu")) {
        snprintf(out->device, sizeof out->device, "cpu (double-precision reference)");
        return VKMD_OK;
    }
    const int automatic = !strcmp(device, "auto");
    vkmd_vk_context_desc desc = {0};
    if (base)
        desc = *base;
    desc.device = automatic ? NULL : device;
    vkmd_result res = vkmd_vk_context_create(&desc, &out->ctx);
    if (res == VKMD_ERROR_NO_DEVICE && automatic) {
        snprintf(out->device, sizeof out->device,
                 "cpu (double-precision reference; no Vulkan device found)");
        return VKMD_OK;
    }
    if (res != VKMD_OK)
        return res;
    snprintf(out->device, sizeof out->device, "%s (Vulkan device %u)", out->ctx->info.name,
             out->ctx->info.index);
    return VKMD_OK;
}

vkmd_result uff_eval_close(uff_eval *ev)
{
    vkmd_result res = VKMD_OK;
    if (ev->ctx) {
        res = vkmd_vk_context_check_validation(ev->ctx);
        vkmd_vk_context_destroy(ev->ctx);
        ev->ctx = NULL;
    }
    return res;
}

static vkmd_result run_cpu(const vkmd_uff_terms *const *mols, const vkmd_uff_replica *reps,
                           int32_t count, vkmd_uff_energy *out_energy, double *const *out_forces)
{
    for (int32_t r = 0; r < count; ++r) {
        vkmd_result res = vkmd_ref_uff_compute(mols[reps[r].molecule], reps[r].positions,
                                               &out_energy[r], out_forces ? out_forces[r] : NULL);
        if (res != VKMD_OK)
            return res;
    }
    return VKMD_OK;
}

vkmd_result uff_eval_run(uff_eval *ev, const vkmd_uff_terms *const *mols, int32_t mol_count,
                         const vkmd_uff_replica *reps, int32_t count, vkmd_uff_energy *out_energy,
                         double *const *out_forces, vkmd_uff_debug_record **out_debug,
                         int32_t *out_debug_count)
{
    if (out_debug) {
        *out_debug = NULL;
        *out_debug_count = 0;
    }
    if (!ev->ctx) {
        if (ev->debug_replica >= 0 && ev->debug_replica < count)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "per-interaction details are computed on a Vulkan device only");
        return run_cpu(mols, reps, count, out_energy, out_forces);
    }
    const vkmd_uff_replicas_desc d = {.replicas_per_batch = ev->replicas_per_batch,
                                      .debug = ev->debug_replica >= 0,
                                      .debug_replica = ev->debug_replica};
    return vkmd_uff_replicas_evaluate(ev->ctx, mols, mol_count, reps, count, &d, out_energy,
                                      out_forces, out_debug, out_debug_count, &ev->batches);
}

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

void uff_eval_print_debug(FILE *out, const vkmd_uff_debug_record *recs, int32_t count,
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
