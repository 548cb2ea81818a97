/* The test suite's one tolerance table, by comparison and precision. A test
 * that compares two implementations takes its limit from here, so tightening
 * or loosening a precision class is one edit and every figure stays
 * comparable. */
#ifndef VKMD_TESTS_TOLERANCE_H
#define VKMD_TESTS_TOLERANCE_H

/* CPU double reference vs OpenMM's Reference platform (both double). */
#define TOL_OPENMM_ENERGY_REL 1e-6 /* per term and total, relative */
#define TOL_OPENMM_ENERGY_ABS 1e-4 /* kcal/mol, for terms near zero */
#define TOL_OPENMM_FORCE_RMS  1e-6 /* RMS(F - F_openmm) / RMS(F_openmm) */

/* A GPU pass in fp32 arithmetic vs the CPU double reference. */
#define TOL_FP32_ENERGY_REL 1e-5 /* per term, relative */
/* ... or absolute, for a term that is a small difference of large pair sums
 * (the real-space Coulomb energy of a water box can cancel to 1 kcal/mol out
 * of 1e4 in absolute pair energies): charges as floats bias such sums by
 * ~1e-8 of the absolute sum (measured: 1.8e-4 kcal/mol on water:216). */
#define TOL_FP32_ENERGY_ABS 1e-3 /* kcal/mol */
#define TOL_FP32_FORCE_RMS  1e-5 /* RMS(F_gpu - F_ref) / RMS(F_ref) */
#define TOL_FP32_TOTAL_REL  1e-6 /* total potential energy, relative */
#define TOL_FP32_FORCE_MAX  1e-3 /* max |F_gpu - F_ref| / RMS(F_ref), any atom and axis */

/* CPU double UFF reference vs RDKit 2022.09's UFF (both double, on the same
 * 4-decimal coordinates). */
#define TOL_RDKIT_ENERGY_REL 1e-4 /* total and per-term energies, relative */
#define TOL_RDKIT_ENERGY_ABS 1e-3 /* kcal/mol, for energies near zero */
#define TOL_RDKIT_GRAD_RMS   1e-4 /* RMS(g - g_rdkit) / RMS(g_rdkit) */
#define TOL_RDKIT_PARAM_REL  1e-8 /* term parameters (the data keep 10 significant digits) */

#endif
