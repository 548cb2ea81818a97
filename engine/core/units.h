/* Unit conversions between vkmd's internal units (A, fs, amu, kcal/mol, K)
 * used by the integrators, reporters and their references. */
#ifndef VKMD_CORE_UNITS_H
#define VKMD_CORE_UNITS_H

/* (kcal/mol/A) / amu in A/fs^2: a = F / m * VKMD_ACCEL_PER_FORCE_MASS.
 * 1 kcal/mol = 4184 J/mol, 1 amu = 1e-3 kg/mol: 4.184e6 m^2/s^2 per A. */
#define VKMD_ACCEL_PER_FORCE_MASS 4.184e-4

/* amu A^2/fs^2 in kcal/mol: KE = 0.5 m v^2 * VKMD_KCAL_PER_AMU_A2_FS2. */
#define VKMD_KCAL_PER_AMU_A2_FS2 (1.0 / 4.184e-4)

/* Boltzmann constant in kcal/mol/K: k_B N_A / 4184 with the exact SI 2019
 * values (1.380649e-23 J/K, 6.02214076e23 /mol), as OpenMM's BOLTZ. */
#define VKMD_BOLTZMANN_KCAL 0.00198720425864083

/* 1 ps in fs. */
#define VKMD_FS_PER_PS 1000.0

#endif
