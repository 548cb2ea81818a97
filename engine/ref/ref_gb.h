/* CPU double-precision reference of generalized Born implicit solvent, the
 * five AMBER models as OpenMM 7.7 builds them from a prmtop (HCT igb 1,
 * OBC1 igb 2, OBC2 igb 5, GBn igb 7, GBn2 igb 8; system/gb_params.h), with
 * Debye-Hueckel salt screening, the optional ACE nonpolar term, and all
 * pairs or OpenMM's non-periodic cutoff (pairs beyond it leave both the
 * Born radii's sums and the energy, whose pair term is shifted by
 * -1/cutoff). Forces carry the full chain rule through the Born radii.
 * The oracle only: O(N^2), no Vulkan. Units A, kcal/mol, kcal/mol/A. */
#ifndef VKMD_REF_REF_GB_H
#define VKMD_REF_REF_GB_H

#include "system/gb_params.h"
#include "system/gb_settings.h"
#include "system/system.h"

/* GB on positions `xyz` ([3 * atom_count] A) of `sys` with `settings`
 * (zero means default, resolved here). *out_gb_energy: the polar energy
 * (self and pair terms); *out_nonpolar_energy: ACE (0 unless
 * settings->nonpolar). Forces of both are ADDED to `forces` ([3 *
 * atom_count], may be NULL); out_born_radii ([atom_count] A) may be NULL.
 * Errors: those of vkmd_gb_params_build (a periodic box, no radii, ...),
 * VKMD_ERROR_INVALID_ARGUMENT for NULL positions, VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result ref_gb_energy_forces(const vkmd_system *sys, const vkmd_gb_settings *settings,
                                 const double *xyz, double *out_gb_energy,
                                 double *out_nonpolar_energy, double *forces,
                                 double *out_born_radii);

/* The same on parameters already built. */
vkmd_result ref_gb_compute(const vkmd_gb_params *p, const double *xyz, double *out_gb_energy,
                           double *out_nonpolar_energy, double *forces, double *out_born_radii);

#endif
