/* Host maths of Ewald sums and smooth PME that the device passes
 * (forces/forcefield.c, forces/pass_pme.c) and the CPU reference (ref/)
 * share, so both use one definition: the energies without forces (self,
 * long-range dispersion, neutralising plasma) and the B-spline moduli of
 * the PME grid. Energies kcal/mol, lengths A, alpha 1/A, coulomb_k
 * kcal/mol A/e^2. No Vulkan. */
#ifndef VKMD_MATHS_EWALD_H
#define VKMD_MATHS_EWALD_H

#include "system/system.h"

/* Ewald self energy -k alpha/sqrt(pi) sum q^2 (no force). */
double vkmd_ewald_self_energy(const vkmd_system *sys, double alpha, double coulomb_k);
/* Long-range LJ correction of a periodic system (no force), as OpenMM's
 * NonbondedForceImpl::calcDispersionCorrection: pair counts per LJ type pair
 * averaged over N(N+1)/2 interactions, times 8 pi N^2 (A/(36 rc^9) - B/(12 rc^3)) / V. */
double vkmd_ewald_dispersion_energy(const vkmd_system *sys, double cutoff_a);
/* Neutralising-plasma energy -k pi Q^2 / (2 V alpha^2) (no force). */
double vkmd_ewald_net_charge_energy(const vkmd_system *sys, double alpha, double coulomb_k);

/* B-spline weights w[j] = M_n(frac + n - 1 - j) of order n = `order` (2..16)
 * and their derivatives dw[j] with respect to frac, j = 0 .. n-1
 * (Essmann's recursion). */
void vkmd_pme_bspline(double frac, int order, double *w, double *dw);

/* B-spline moduli |b(m)|^2 of order `order` (2..16) for m = 0 .. k-1 into
 * out [k], values below 1e-7 replaced as OpenMM does (see ewald.c). Also
 * what the GPU PME pass (forces/pass_pme.c) uploads, so both use one
 * definition. */
void vkmd_pme_moduli(int k, int order, double *out);

#endif
