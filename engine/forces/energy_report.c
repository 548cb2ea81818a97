/* An energy breakdown as text or JSON (see energy_report.h). */
#include "forces/energy_report.h"
#include "core/json_write.h"

#include <errno.h>
#include <math.h>
#include <string.h>

typedef struct term_row {
    const char *key;
    const char *label;
    double value;
} term_row;

#define MAX_ROWS 24

/* The CHARMM rows (Urey-Bradley, harmonic impropers, CMAP) appear only for
 * systems that have such terms, so AMBER reports keep their rows. */
static int fill_rows(const vkmd_energy *e, const vkmd_system *sys, const vkmd_ff_settings *s,
                     term_row rows[MAX_ROWS])
{
    const int charmm =
        sys->urey_bradley_count > 0 || sys->improper_harmonic_count > 0 || sys->cmap_count > 0;
    term_row r[] = {
        {"bond", "bond", e->bond},
        {"angle", "angle", e->angle},
        {"dihedral", "dihedral (proper + improper)", e->dihedral},
        {"improper", "  of which improper", e->improper},
        {"urey_bradley", "Urey-Bradley", e->urey_bradley},
        {"improper_harmonic", "harmonic improper (CHARMM)", e->improper_harmonic},
        {"cmap", "CMAP", e->cmap},
        {"lj", "Lennard-Jones (all)", e->lj},
        {"lj_pair", "  pairs within cutoff", e->lj_pair},
        {"lj14", "  1-4 scaled", e->lj14},
        {"lj_dispersion", "  dispersion correction", e->lj_dispersion},
        {"coulomb", "Coulomb (all)", e->coulomb},
        {"coulomb_real", "  real space", e->coulomb_real},
        {"coulomb_recip", "  reciprocal (PME)", e->coulomb_recip},
        {"coulomb_self", "  self", e->coulomb_self},
        {"coulomb_excl", "  excluded-pair correction", e->coulomb_excl},
        {"coulomb_net_charge", "  net-charge correction", e->coulomb_net_charge},
        {"coulomb14", "  1-4 scaled", e->coulomb14},
        {"restraint", "positional restraints", e->restraint},
        {"gb", "generalized Born (polar solvation)", e->gb},
        {"nonpolar", "nonpolar solvation (ACE)", e->nonpolar},
        {"total", "total", e->total},
    };
    int n = 0;
    for (size_t k = 0; k < sizeof r / sizeof *r; ++k) {
        const int is_charmm = k >= 4 && k < 7;
        const int is_gb = !strcmp(r[k].key, "gb") || !strcmp(r[k].key, "nonpolar");
        if ((!is_charmm || charmm) && (!is_gb || s->gb.model != VKMD_GB_NONE))
            rows[n++] = r[k];
    }
    return n;
}

static const char *coulomb_name(const vkmd_ff_settings *s)
{
    return s->coulomb == VKMD_COULOMB_AMBER ? "amber" : "openmm";
}

vkmd_result vkmd_energy_report_write(FILE *out, const vkmd_energy_report_desc *desc,
                                     const vkmd_system *sys, const vkmd_ff_settings *s,
                                     const vkmd_energy *e)
{
    term_row rows[MAX_ROWS];
    int n = fill_rows(e, sys, s, rows);
    if (desc->json) {
        fprintf(out, "{\n  \"units\": {\"energy\": \"kcal/mol\", \"length\": \"angstrom\", "
                     "\"ewald_alpha\": \"1/angstrom\", \"force\": \"kcal/mol/angstrom\"},\n");
        fprintf(out, "  \"vkmd_version\": \"%s\",\n  \"commit\": \"%s\",\n", VKMD_VERSION,
                VKMD_GIT_COMMIT);
        fprintf(out, "  \"system\": ");
        vkmd_json_write_string(out, desc->system);
        fprintf(out, ",\n  \"device\": ");
        vkmd_json_write_string(out, desc->device);
        fprintf(out, ",\n  \"n_atoms\": %d,\n  \"periodic\": %s,\n", sys->atom_count,
                sys->box.periodic ? "true" : "false");
        if (sys->box.periodic) {
            const vkmd_box *b = &sys->box;
            fprintf(out, "  \"box_a\": [%.6f, %.6f, %.6f],\n", b->len[0], b->len[1], b->len[2]);
            /* alpha, beta, gamma; a rectangular box may leave angle_deg unset */
            fprintf(out, "  \"box_angles_deg\": [%.7f, %.7f, %.7f],\n",
                    b->triclinic ? b->angle_deg[0] : 90.0, b->triclinic ? b->angle_deg[1] : 90.0,
                    b->triclinic ? b->angle_deg[2] : 90.0);
            fprintf(out, "  \"box_volume_a3\": %.6f,\n", vkmd_box_volume_a3(b));
        }
        for (int i = 0; i < n; ++i)
            fprintf(out, "  \"%s\": %.10f,\n", rows[i].key, rows[i].value);
        if (sys->box.periodic) {
            fprintf(out,
                    "  \"cutoff_a\": %.6f,\n  \"ewald_tolerance\": %g,\n"
                    "  \"ewald_alpha_per_a\": %.10f,\n  \"pme_grid\": [%d, %d, %d],\n"
                    "  \"pme_order\": %d,\n  \"dispersion_correction\": %s,\n"
                    "  \"net_charge_e\": %.6f,\n  \"net_charge_correction\": %s,\n",
                    s->cutoff_a, s->ewald_tolerance, s->ewald_alpha, s->pme_grid[0], s->pme_grid[1],
                    s->pme_grid[2], s->pme_order, s->no_dispersion_correction ? "false" : "true",
                    vkmd_system_net_charge(sys), s->net_charge_correction ? "true" : "false");
        } else {
            fprintf(out, "  \"cutoff_a\": null,\n  \"nonbonded_method\": \"no cutoff\",\n");
            const vkmd_gb_settings *g = &s->gb;
            if (g->model != VKMD_GB_NONE) {
                fprintf(out,
                        "  \"implicit_solvent\": \"%s\", \"gb_solute_dielectric\": %g, "
                        "\"gb_solvent_dielectric\": %g, \"gb_salt_molar\": %g, \"gb_kappa_per_a\": "
                        "%.10f, \"gbsa\": \"%s\", \"gb_cutoff_a\": ",
                        vkmd_gb_model_name(g->model), g->solute_dielectric, g->solvent_dielectric,
                        g->salt_molar, vkmd_gb_kappa_per_a(g), g->nonpolar ? "ace" : "none");
                if (g->cutoff_a > 0)
                    fprintf(out, "%g,\n", g->cutoff_a);
                else
                    fprintf(out, "null,\n");
            }
        }
        if (desc->choice) {
            fprintf(out, "  ");
            vkmd_precision_print_json(out, desc->choice);
            fprintf(out, ",\n");
        } else {
            fprintf(out, "  \"precision\": \"double\", \"precision_asked\": \"auto\", "
                         "\"positions\": \"double\", \"precision_reason\": \"CPU reference: "
                         "double precision throughout\",\n");
        }
        fprintf(out, "  \"lj_precision\": \"%s\", \"lj_fp16_min_r_a\": %g,\n",
                s->nonbonded_fp16 == VKMD_LJ_FP16_POWERS ? "fp16-powers"
                : s->nonbonded_fp16                      ? "fp16"
                                                         : "fp32",
                s->nonbonded_fp16 ? s->fp16_min_r_a : 0.0);
        fprintf(out,
                "  \"coulomb_constant\": \"%s\",\n  \"coulomb_k_kcal_a_per_mol_e2\": %.10f\n}\n",
                coulomb_name(s), vkmd_ff_coulomb_k(s));
    } else {
        fprintf(out, "vkmd energy: %s, %d atoms, device %s\n", desc->system, sys->atom_count,
                desc->device);
        if (sys->box.periodic)
            fprintf(out,
                    "box %.4f x %.4f x %.4f A; cutoff %.4f A; Ewald alpha %.6f 1/A "
                    "(tolerance %g); PME grid %dx%dx%d, order %d; dispersion correction %s; "
                    "net charge %.4f e, net-charge correction %s\n",
                    sys->box.len[0], sys->box.len[1], sys->box.len[2], s->cutoff_a, s->ewald_alpha,
                    s->ewald_tolerance, s->pme_grid[0], s->pme_grid[1], s->pme_grid[2],
                    s->pme_order, s->no_dispersion_correction ? "off" : "on",
                    vkmd_system_net_charge(sys), s->net_charge_correction ? "on" : "off");
        else
            fprintf(out, "no periodic box: no cutoff, plain Coulomb over all pairs\n");
        if (s->gb.model != VKMD_GB_NONE)
            fprintf(out,
                    "implicit solvent: %s (igb %d), dielectrics %g (solute) and %g (solvent), salt "
                    "%g M (kappa %.6f 1/A), nonpolar %s, GB pairs %s\n",
                    vkmd_gb_model_name(s->gb.model), vkmd_gb_model_igb(s->gb.model),
                    s->gb.solute_dielectric, s->gb.solvent_dielectric, s->gb.salt_molar,
                    vkmd_gb_kappa_per_a(&s->gb), s->gb.nonpolar ? "ACE" : "none",
                    s->gb.cutoff_a > 0 ? "within the cutoff" : "all");
        if (sys->box.periodic && sys->box.triclinic)
            fprintf(out,
                    "triclinic box: angles %.7f %.7f %.7f degrees (alpha beta gamma), volume "
                    "%.4f A^3, %.4f A between its closest faces\n",
                    sys->box.angle_deg[0], sys->box.angle_deg[1], sys->box.angle_deg[2],
                    vkmd_box_volume_a3(&sys->box), vkmd_box_min_width(&sys->box));
        fprintf(out, "Coulomb constant %.7f kcal/mol A/e^2 (%s)\n", vkmd_ff_coulomb_k(s),
                s->coulomb == VKMD_COULOMB_AMBER ? "AMBER pmemd" : "OpenMM, CODATA 2018");
        if (desc->choice)
            vkmd_precision_print(out, desc->choice);
        if (s->nonbonded_fp16)
            fprintf(out, "LJ pair math %s for pairs beyond %g A, fp32 closer\n",
                    s->nonbonded_fp16 == VKMD_LJ_FP16_POWERS ? "with fp16 powers" : "in fp16",
                    s->fp16_min_r_a);
        fprintf(out, "%-32s %18s\n", "term", "kcal/mol");
        for (int i = 0; i < n; ++i)
            fprintf(out, "%-32s %18.6f\n", rows[i].label, rows[i].value);
    }
    if (ferror(out))
        return vkmd_fail(VKMD_ERROR_IO, "writing the energy report failed");
    return VKMD_OK;
}

vkmd_result vkmd_energy_report_write_forces(const char *path, const char *device,
                                            const vkmd_system *sys, const double *forces)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
    fprintf(f, "# vkmd forces, %d atoms, units kcal/mol/A, device %s\n# atom fx fy fz\n",
            sys->atom_count, device);
    for (int32_t a = 0; a < sys->atom_count; ++a)
        fprintf(f, "%d %.10e %.10e %.10e\n", a + 1, forces[3 * a], forces[3 * a + 1],
                forces[3 * a + 2]);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return vkmd_fail(VKMD_ERROR_IO, "%s: writing forces failed: %s", path, strerror(errno));
    return VKMD_OK;
}
