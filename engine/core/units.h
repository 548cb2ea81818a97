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

/* Avogadro's number (SI 2019, exact), 1/mol. */
#define VKMD_AVOGADRO 6.02214076e23

/* Pressure: 1 bar in kcal/mol/A^3 (1e5 Pa * 1e-30 m^3 * N_A / 4184 J). */
#define VKMD_KCAL_PER_A3_PER_BAR (1e5 * 1e-30 * VKMD_AVOGADRO / 4184.0)

/* Density: amu/A^3 in g/cm^3 (1 amu = 1/N_A g, 1 A^3 = 1e-24 cm^3). */
#define VKMD_G_CM3_PER_AMU_A3 (1.0 / (VKMD_AVOGADRO * 1e-24))

#endif
