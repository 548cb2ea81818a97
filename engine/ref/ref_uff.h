/* CPU double-precision reference of the UFF terms (system/uff_terms.h): the
 * oracle the GPU UFF pass is checked against, itself checked against RDKit
 * (tests/test_ref_uff_rdkit.c). No Vulkan here; forms in ref_uff_forms.h.
 *
 * Per-term functions evaluate one term list at positions `pos`
 * ([3 * atom_count], A, no periodic box), ADD forces (kcal/mol/A, minus the
 * gradient) into `f` ([3 * atom_count], may be NULL) and return the energy
 * in kcal/mol. */
#ifndef VKMD_REF_REF_UFF_H
#define VKMD_REF_REF_UFF_H

#include "system/uff_terms.h"

double ref_uff_bonds(const vkmd_uff_terms *t, const double *pos, double *f);
double ref_uff_angles(const vkmd_uff_terms *t, const double *pos, double *f);
double ref_uff_torsions(const vkmd_uff_terms *t, const double *pos, double *f);
double ref_uff_inversions(const vkmd_uff_terms *t, const double *pos, double *f);
/* van der Waals over t->pairs; a pair beyond t->vdw_threshold * x_ij adds nothing. */
double ref_uff_vdw(const vkmd_uff_terms *t, const double *pos, double *f);
/* Coulomb over t->pairs (0 unless t->coulomb). */
double ref_uff_coulomb(const vkmd_uff_terms *t, const double *pos, double *f);

/* Cosines the angular terms depend on, with their gradients (d cos / d x_a
 * in out_g[3 * a'], a' the a-th atom as passed); exposed for tests. Each
 * returns the cosine; a degenerate geometry (zero-length bond, collinear
 * torsion atoms) gives cosine 1 and zero gradient. */
double ref_uff_cos_angle(const double *xi, const double *xj, const double *xk, double out_g[9]);
double ref_uff_cos_torsion(const double *xi, const double *xj, const double *xk, const double *xl,
                           double out_g[12]);
/* Cosine of the angle between the normal of plane i-j-k (j the centre) and
 * the bond j-l. */
double ref_uff_cos_inversion(const double *xi, const double *xj, const double *xk, const double *xl,
                             double out_g[12]);

/* Every term at conformer positions `pos`: fills `out_energy` and, if
 * out_forces is non-NULL, overwrites it with the total force per atom
 * ([3 * atom_count], kcal/mol/A). Errors: VKMD_ERROR_NUMERIC (a non-finite
 * energy, e.g. two atoms at the same place). */
vkmd_result vkmd_ref_uff_compute(const vkmd_uff_terms *t, const double *pos,
                                 vkmd_uff_energy *out_energy, double *out_forces);

#endif
