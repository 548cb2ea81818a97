/* Per-atom generalized Born parameters of a system as OpenMM 7.7's AMBER
 * reader builds them for implicitSolvent=HCT, OBC1, OBC2, GBn or GBn2
 * (openmm/app/internal/amber_file_parser.py, customgbforces.py), shared by
 * the CPU reference and the GPU pass:
 *   radius     the prmtop's RADII (every model);
 *   offset     the dielectric offset, 0.09 A (GBn2: 0.195141 A); the offset
 *              radius rho = radius - offset;
 *   screen     the prmtop's SCREEN for HCT, OBC1, OBC2; by element for GBn
 *              and GBn2 (GBn2: another column for nucleic-acid residues),
 *              as AMBER's sander and pmemd override the file's values; the
 *              scaled radius s = screen * rho;
 *   alpha, beta, gamma  of B = 1 / (1/rho - tanh(a psi - b psi^2 + g psi^3) / radius),
 *              psi = I rho: OBC1 (0.8, 0, 2.909125), OBC2 (1, 0.8, 4.85),
 *              GBn (1.09511284, 1.907992938, 2.50798245), GBn2 by element;
 *              HCT has no rescaling (B = 1 / (1/rho - I)), alpha = 0;
 *   neck       GBn and GBn2 add neck_scale * m0 / (1 + x^2 + 0.3 x^6),
 *              x = r - d0, to I for pairs closer than radius_i + radius_j +
 *              6.8 A; d0 and m0 are interpolated in the tables of Mongan,
 *              Simmerling, McCammon, Case and Onufriev, "Generalized Born
 *              model with a simple, robust molecular volume correction",
 *              J. Chem. Theory Comput. 3, 156-169 (2007) (AMBER's gb_neck),
 *              which cover radii 1.0 to 2.0 A in steps of 0.05 A.
 * Units: A, kcal/mol, e. */
#ifndef VKMD_SYSTEM_GB_PARAMS_H
#define VKMD_SYSTEM_GB_PARAMS_H

#include "core/result.h"
#include "system/gb_settings.h"
#include "system/system.h"

#include <stdint.h>

/* The Coulomb constant of OpenMM's CustomGBForce expressions (138.935485
 * kJ/mol nm e^-2) and of its built-in GBSAOBCForce (ONE_4PI_EPS0,
 * 138.935457644382), in kcal/mol A e^-2. OpenMM builds OBC2 without salt
 * with the built-in force, every other case with the custom expressions. */
#define VKMD_GB_COULOMB_K_CUSTOM  (138.935485 * 10.0 / 4.184)
#define VKMD_GB_COULOMB_K_BUILTIN (138.935457644382 * 10.0 / 4.184)

typedef struct vkmd_gb_params {
    int32_t atom_count;
    vkmd_gb_settings settings;    /* resolved */
    double kappa_per_a;           /* Debye-Hueckel screening, 1/A (0: no salt) */
    double coulomb_k;             /* kcal/mol A e^-2 */
    double offset_a;              /* dielectric offset */
    double neck_scale;            /* 0: no neck term (HCT, OBC) */
    double neck_cut_a;            /* 6.8 A beyond radius_i + radius_j */
    double ace_factor;            /* 4 pi gamma, kcal/mol/A^2 (OpenMM's custom expressions
                                   * write the default as 28.3919551 kJ/mol/nm^2) */
    double *charge;               /* [atom_count] e */
    double *radius;               /* [atom_count] A */
    double *offset_radius;        /* [atom_count] A, rho */
    double *scaled_radius;        /* [atom_count] A, screen * rho */
    double *alpha, *beta, *gamma; /* [atom_count] each */
} vkmd_gb_params;

/* Builds the parameters of `sys` for `settings` (resolved here). Errors:
 * VKMD_ERROR_INVALID_ARGUMENT for a periodic system (OpenMM's AMBER GB is
 * non-periodic here), a system without GB radii (no RADII / SCREEN
 * sections or all radii zero: rebuild the prmtop with tleap's `set default
 * PBRadii` or ParmEd's changeRadii), a radius <= the dielectric offset,
 * GBn/GBn2 radii outside the neck tables' 1-2 A (OpenMM refuses them too)
 * and invalid settings; VKMD_ERROR_OUT_OF_MEMORY. A RADIUS_SET other than
 * the model's (vkmd_gb_model_radius_set) is a warning (core/log.h), as
 * OpenMM warns of non-optimal GB parameters. */
vkmd_result vkmd_gb_params_build(const vkmd_system *sys, const vkmd_gb_settings *settings,
                                 vkmd_gb_params *out);

/* Frees the arrays and zeroes `p`. Safe on a zeroed struct. */
void vkmd_gb_params_destroy(vkmd_gb_params *p);

/* The neck integral's d0 (A) and m0 (1/A) of atom j in the descreening sum
 * of atom i (intrinsic radii radius_i_a, radius_j_a): bilinear interpolation
 * in the Mongan et al. tables, clamped at 1 and 2 A, as OpenMM's
 * GBSAGBnForce tabulates them, which reads the entry at row j, column i. */
void vkmd_gb_neck_lookup(double radius_i_a, double radius_j_a, double *out_d0_a,
                         double *out_m0_per_a);

#endif
