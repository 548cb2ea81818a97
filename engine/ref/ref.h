/* CPU double-precision reference force field: the oracle for every GPU pass.
 * No Vulkan here. Functional forms are in ref_forms.h (mirrored by
 * shaders/common/forms.glsl with the same names).
 *
 * Per-term functions ADD forces (kcal/mol/A) into `f` ([3 * atom_count],
 * may be NULL) and return the energy in kcal/mol. Bonded terms use the
 * minimum-image convention when the box is periodic (identical to plain
 * differences for whole molecules). */
#ifndef VKMD_REF_REF_H
#define VKMD_REF_REF_H

#include "maths/ewald.h"
#include "system/ff_settings.h"
#include "system/restraints.h"
#include "system/system.h"

/* Every term; `s` must be resolved (vkmd_ff_settings_resolve). Fills
 * `out_energy` and, if out_forces is non-NULL, overwrites it with the total
 * force on each atom ([3 * atom_count]). */
vkmd_result vkmd_ref_compute(const vkmd_system *sys, const vkmd_ff_settings *s,
                             vkmd_energy *out_energy, double *out_forces);

/* vkmd_ref_compute plus positional restraints (`r` may be NULL: none),
 * their energy in out_energy->restraint. */
vkmd_result vkmd_ref_compute_restrained(const vkmd_system *sys, const vkmd_ff_settings *s,
                                        const vkmd_restraints *r, vkmd_energy *out_energy,
                                        double *out_forces);
/* Positional restraints on `positions` [3 * atom_count] A (AMBER's E = k |d|^2,
 * flat bottom when r->flat_bottom_a > 0; d minimum image in `box`). NULL r: 0. */
double ref_restraints(const vkmd_restraints *r, const vkmd_box *box, const double *positions,
                      double *f);
double ref_bonds(const vkmd_system *sys, double *f);
double ref_angles(const vkmd_system *sys, double *f);
/* Propers + impropers; the improper part alone in *out_improper if non-NULL. */
double ref_dihedrals(const vkmd_system *sys, double *f, double *out_improper);
/* CHARMM Urey-Bradley terms (form_bond over sys->urey_bradleys). */
double ref_urey_bradley(const vkmd_system *sys, double *f);
/* CHARMM harmonic impropers (form_improper_harmonic). */
double ref_impropers_harmonic(const vkmd_system *sys, double *f);
/* CMAP terms: bicubic patches of each map (maths/cmap_spline.h) at (phi, psi).
 * Errors: VKMD_ERROR_OUT_OF_MEMORY, VKMD_ERROR_INVALID_ARGUMENT (a bad map). */
vkmd_result ref_cmap(const vkmd_system *sys, double *f, double *out_energy);
/* Adds the force of dE/dphi = de_dphi on the dihedral i-j-k-l (the split
 * ref_dihedrals uses); nothing for a collinear triple. */
void ref_dihedral_apply(const vkmd_box *box, const double *x, int32_t i, int32_t j, int32_t k,
                        int32_t l, double de_dphi, double *f);
/* Scaled 1-4 LJ and Coulomb (plain 1/r, no cutoff, minimum image); the LJ
 * from the 1-4 tables (lj14_a, lj14_b) when the system has them. */
void ref_pairs14(const vkmd_system *sys, double coulomb_k, double *f, double *out_lj14,
                 double *out_coulomb14);

/* Displacement b - a under the box's minimum-image convention. */
void ref_delta(const vkmd_box *box, const double *a, const double *b, double out_d[3]);

/* Dihedral angle i-j-k-l in rad, (-pi, pi], IUPAC sign as OpenMM (minimum image). */
double ref_dihedral_angle(const vkmd_box *box, const double *xi, const double *xj, const double *xk,
                          const double *xl);

/* Non-excluded pairs. Periodic: LJ (plain truncation) and Ewald real-space
 * k q_i q_j erfc(alpha r)/r for r < cutoff_a, minimum image, O(N) cell list.
 * Non-periodic: LJ and plain k q_i q_j / r over all pairs (no cutoff).
 * Energies in *out_lj and *out_coulomb. Errors: VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result ref_nonbonded_pairs(const vkmd_system *sys, const vkmd_ff_settings *s, double coulomb_k,
                                double *f, double *out_lj, double *out_coulomb);
/* Same sums by an O(N^2) search: the cross-check of the cell list in tests. */
vkmd_result ref_nonbonded_pairs_n2(const vkmd_system *sys, const vkmd_ff_settings *s,
                                   double coulomb_k, double *f, double *out_lj,
                                   double *out_coulomb);
/* Ewald excluded-pair correction: -k q_i q_j erf(alpha r)/r summed over every
 * exclusion (1-4 pairs included) at any distance, minimum image. */
double ref_nonbonded_excluded(const vkmd_system *sys, double alpha, double coulomb_k, double *f);
/* Smooth PME reciprocal energy (*out_energy) and forces, double precision,
 * grid s->pme_grid (any size), B-spline order s->pme_order, alpha
 * s->ewald_alpha. Periodic systems only. Errors: VKMD_ERROR_OUT_OF_MEMORY,
 * VKMD_ERROR_INVALID_ARGUMENT (no box, grid < order). */
vkmd_result ref_pme(const vkmd_system *sys, const vkmd_ff_settings *s, double coulomb_k, double *f,
                    double *out_energy);
#endif
