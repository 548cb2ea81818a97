/* vkmd_ref_compute: every reference term summed, the oracle the GPU passes and
 * the OpenMM comparison are checked against.
 *
 * Surprises:
 * - coulomb_net_charge is 0 unless settings ask for it. OpenMM 7.7's Reference platform omits the
 *   neutralising-plasma term: for one +1 e ion alone in a 30 A box its PME
 *   energy moves with alpha (-64.407, -65.040, -65.300 kJ/mol at alpha = 2.5,
 *   3.5, 4.5 /nm) and adding -k pi Q^2 / (2 V alpha^2) gives the alpha-free
 *   Madelung value (-65.700 kJ/mol) every time. The default matches OpenMM;
 *   net_charge_correction = 1 adds it (AMBER pmemd and GROMACS do).
 * - Non-periodic systems follow OpenMM's NoCutoff: plain Coulomb over all
 *   non-excluded pairs, no cutoff, no Ewald terms, no dispersion correction.
 * - The settings must already be resolved; nothing is defaulted here, so the
 *   reference and a GPU pass given the same struct use identical parameters. */
#include "ref/ref.h"
#include "ref/ref_gb.h"
#include "ref/ref_vsite.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Virtual sites: the terms see the sites built from their parents (a copy
 * of the positions), and the sites' forces go to their parents. */
static vkmd_result compute_with_vsites(const vkmd_system *sys, const vkmd_ff_settings *s,
                                       const vkmd_restraints *r, vkmd_energy *out_energy,
                                       double *out_forces)
{
    const size_t n3 = 3 * (size_t)sys->atom_count;
    double *x = malloc(sizeof *x * n3);
    if (!x)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "reference force field: virtual sites");
    memcpy(x, sys->positions, sizeof *x * n3);
    ref_vsite_build(sys, x);
    vkmd_system built = *sys;
    built.positions = x;
    built.vsite_count = 0;
    built.vsites = NULL;
    vkmd_result res = vkmd_ref_compute_restrained(&built, s, r, out_energy, out_forces);
    if (res == VKMD_OK && out_forces)
        ref_vsite_spread(sys, x, out_forces);
    free(x);
    return res;
}

vkmd_result vkmd_ref_compute(const vkmd_system *sys, const vkmd_ff_settings *s,
                             vkmd_energy *out_energy, double *out_forces)
{
    return vkmd_ref_compute_restrained(sys, s, NULL, out_energy, out_forces);
}

vkmd_result vkmd_ref_compute_restrained(const vkmd_system *sys, const vkmd_ff_settings *s,
                                        const vkmd_restraints *r, vkmd_energy *out_energy,
                                        double *out_forces)
{
    memset(out_energy, 0, sizeof *out_energy);
    if (!sys->positions)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "reference force field: the system has no coordinates");
    if (sys->vsite_count > 0)
        return compute_with_vsites(sys, s, r, out_energy, out_forces);
    const int32_t n = sys->atom_count;
    for (int32_t a = 0; a < 3 * n; ++a)
        if (!isfinite(sys->positions[a]))
            return vkmd_fail(VKMD_ERROR_NUMERIC,
                             "reference force field: atom %d has a non-finite coordinate",
                             a / 3 + 1);
    const int periodic = sys->box.periodic;
    if (periodic) {
        if (!(s->cutoff_a > 0) || !(s->ewald_alpha > 0) || s->pme_order == 0 || s->pme_grid[0] == 0)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "reference force field: settings are not resolved (cutoff %g A, "
                             "alpha %g /A, order %d, grid %d); call vkmd_ff_settings_resolve",
                             s->cutoff_a, s->ewald_alpha, s->pme_order, s->pme_grid[0]);
        for (int d = 0; d < 3; ++d) {
            const double edge = sys->box.len[d];
            if (!(edge >= 2 * s->cutoff_a))
                return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                 "reference force field: box edge %c = %g A is below twice the "
                                 "cutoff %g A",
                                 "xyz"[d], edge, s -> cutoff_a);
        }
        const double width = vkmd_box_min_width(&sys->box);
        if (sys->box.triclinic && !(width >= 2 * s->cutoff_a))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "reference force field: triclinic box is %g A wide between its "
                             "closest faces, below twice the cutoff %g A",
                             width, s->cutoff_a);
    }
    const double k = vkmd_ff_coulomb_k(s);
    double *f = out_forces;
    if (f)
        memset(f, 0, sizeof *f * 3 * (size_t)n);

    vkmd_energy *e = out_energy;
    vkmd_result res;
    e->bond = ref_bonds(sys, f);
    e->angle = ref_angles(sys, f);
    e->dihedral = ref_dihedrals(sys, f, &e->improper);
    ref_pairs14(sys, k, f, &e->lj14, &e->coulomb14);
    e->urey_bradley = ref_urey_bradley(sys, f);
    e->improper_harmonic = ref_impropers_harmonic(sys, f);
    res = ref_cmap(sys, f, &e->cmap);
    if (res != VKMD_OK)
        return res;
    res = ref_nonbonded_pairs(sys, s, k, f, &e->lj_pair, &e->coulomb_real);
    if (res != VKMD_OK)
        return res;
    if (periodic) {
        e->coulomb_excl = ref_nonbonded_excluded(sys, s->ewald_alpha, k, f);
        e->coulomb_self = vkmd_ewald_self_energy(sys, s->ewald_alpha, k);
        if (!s->no_dispersion_correction)
            e->lj_dispersion = vkmd_ewald_dispersion_energy(sys, s->cutoff_a);
        if (s->net_charge_correction)
            e->coulomb_net_charge = vkmd_ewald_net_charge_energy(sys, s->ewald_alpha, k);
        res = ref_pme(sys, s, k, f, &e->coulomb_recip);
        if (res != VKMD_OK)
            return res;
    }
    e->restraint = ref_restraints(r, &sys->box, sys->positions, f);
    if (s->gb.model != VKMD_GB_NONE) {
        res = ref_gb_energy_forces(sys, &s->gb, sys->positions, &e->gb, &e->nonpolar, f, NULL);
        if (res != VKMD_OK)
            return res;
    }
    vkmd_energy_sum(e);

    if (!isfinite(e->total))
        return vkmd_fail(VKMD_ERROR_NUMERIC,
                         "reference force field: non-finite energy (bond %g angle %g dihedral %g "
                         "LJ %g Coulomb %g kcal/mol); overlapping atoms?",
                         e->bond, e->angle, e->dihedral, e->lj, e->coulomb);
    if (f)
        for (int32_t a = 0; a < 3 * n; ++a)
            if (!isfinite(f[a]))
                return vkmd_fail(VKMD_ERROR_NUMERIC,
                                 "reference force field: non-finite force on atom %d", a / 3 + 1);
    return VKMD_OK;
}
