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
/* ... and for a term that is exactly zero in the reference (no such atoms):
 * zero on the device too, to well below any float rounding of a real term. */
#define TOL_FP32_ENERGY_ZERO 1e-9 /* kcal/mol */
/* Float Box-Muller Gaussians (philox.glsl) vs the double ones from the same
 * Philox words: float rounding of log, sqrt and sin/cos on values up to ~6. */
#define TOL_FP32_GAUSS 1e-5 /* max |g_float - g_double| */

/* Constraint passes (fp32 arithmetic, positions written back as floats). */
#define TOL_CONSTRAINT_WATER_A 1e-5 /* max |r - d| of a water after a pass, A */
/* The same 64 A from the origin: float write-back rounding grows with |x|. */
#define TOL_CONSTRAINT_WATER_FAR_A 1e-4
#define TOL_CONSTRAINT_POS_A       1e-5 /* max |x_gpu - x_ref| after a pass, A */
#define TOL_CONSTRAINT_VEL_REL     1e-5 /* velocities: max |v_gpu - v_ref| / max |v| */
/* fp32 write-back rounding of a bond, relative: coordinates below 32 A round
 * by half an ulp (9.5e-7 A) per component, two atoms, d >= 0.95 A */
#define TOL_FP32_DIST_REL 4e-6

/* FIRE minimisation on the device vs the double reference
 * (test_gpu_minimize*). The same FIRE decisions on both sides over the early
 * iterations, so only the float forces separate the paths: */
#define TOL_MIN_EARLY_ENERGY_FACTOR 10   /* x the start's TOL_FP32_TOTAL_REL allowance */
#define TOL_MIN_EARLY_POSITIONS_A   1e-3 /* max |x_dev - x_ref| after them, A */
/* Converged minima: final energies, relative (the paths part after many
 * iterations and meet the same minimum). */
#define TOL_MIN_FINAL_ENERGY_REL 1e-4
/* Constraints at a constrained minimum: the pass's tolerance (1e-5 relative)
 * plus fp32 write-back rounding (TOL_FP32_DIST_REL; 1e-5 A for waters). */
#define TOL_MIN_WATER_VIOLATION_A   2e-5
#define TOL_MIN_HBOND_VIOLATION_REL (1e-5 + TOL_FP32_DIST_REL)

/* The fused step vs pass by pass with rebuilds at other steps
 * (test_md_fused): chaos amplifies last-bit differences alike in both, so
 * the fused run's RMSD from the pass-by-pass one may be this many times the
 * control's (pass by pass with another outer skin), plus a floor, A. */
#define TOL_FUSED_RMSD_FACTOR  4
#define TOL_FUSED_RMSD_FLOOR_A 1e-6
/* Fused vs pass-by-pass runs on a device that does not give the same bits
 * (tests/testlib.h: test_same_bits_device): position RMSD (A) and relative
 * energy difference. An H200 gave 1.7e-5 A RMSD and 3.7e-7 after 40 steps. */
#define TOL_FUSED_GPU_RMSD_A     1e-3
#define TOL_FUSED_GPU_ENERGY_REL 1e-5
/* Final energies of device and reference minimisations (relative) on a
 * device whose rounding differs from lavapipe's: villin's landscape has
 * minima 0.6 % apart and an H200's path found a lower one than the
 * reference's (-1017.8 vs -1012.1 kcal/mol). */
#define TOL_MIN_FINAL_GPU_REL 0.02

/* MD on the device (default positions mode) vs the double reference, and
 * long runs on their own. */
/* 100 velocity-Verlet steps from the same state, RMSD: fp32 rounding
 * differences grow ~10x per 50 fs in liquid water, from ~1e-6 A. */
#define TOL_MD_RMSD_A 1e-3
/* Max SETTLE violation at any sample of a run (thousands of steps, waters
 * wrapped across the box): ten times what one pass leaves. */
#define TOL_MD_WATER_A 1e-4
/* H-bond clusters after a run: the pass's relative tolerance, 1 % slack. */
#define TOL_MD_HBOND_REL (1e-5 * 1.01)
/* NVE total-energy drift (least-squares slope x run length) relative to
 * |E_total|: a wrong kick, drift or constraint step drifts by percents. */
#define TOL_NVE_DRIFT_REL 1e-3

/* Positions modes: single (fp32), mixed (split-float), fixed (split-int). */
/* Single vs mixed RMSD over the first 250 Langevin steps of 2 fs (the
 * issue's 0.1 A; liquid water's chaos separates any two arithmetics later). */
#define TOL_HORIZON_A 0.1
/* fp32 positions at the origin: the float rounding of the input is part of
 * the force error (the reference sees exact coordinates). */
#define TOL_FP32_ORIGIN_FORCE_RMS 1e-4
/* Mixed and fixed trajectories translated by 1e4 and 1e6 A vs untranslated,
 * max deviation: their displacements are exact to ~1e-9 A. */
#define TOL_SPLIT_TRANSLATED_A 1e-5

/* fp16 nonbonded variants (docs/PRECISION.md), force RMS relative error:
 * any variant finite and close (a broken path gives O(1)); the fp16 forms
 * only beyond 5 A within the bound. Coulomb stays fp32 in every
 * variant: its energies must not move. */
#define TOL_FP16_FORCE_RMS     1e-2
#define TOL_FP16_FAR_FORCE_RMS 1e-4
#define TOL_FP16_COULOMB_REL   1e-4

/* 32-bit words (no int64 atomics): the same bits as the int64 path
 * (test_gpu_fallback compares bits), so no tolerance of their own; the
 * *_words ctest runs hold the GPU tests to the limits above. */

/* UFF on the device vs the double UFF reference (besides the fp32 limits). */
/* kcal/mol: terms whose reference value is near zero (a planar ring's torsions). */
#define TOL_UFF_ENERGY_FLOOR 1e-6
/* --debug-replica records (one per term) vs the pass's own sums and forces. */
#define TOL_UFF_DEBUG_REL 1e-6
/* Maxwell-Boltzmann start vs the shared Philox Gaussians, float velocities. */
#define TOL_UFF_MD_START_REL 1e-6
/* kcal/mol: device energy vs the reference at the relaxed coordinates. */
#define TOL_UFF_RELAX_ENERGY_ABS 1e-4
/* L-BFGS minima vs RDKit's minimum (kcal/mol), and the factor allowed
 * between the median iterations of vkmd's L-BFGS and RDKit's BFGS. */
#define TOL_LBFGS_RDKIT_ENERGY_ABS 1e-4
#define TOL_LBFGS_ITERATIONS_RATIO 2.0
/* L-BFGS device (float) vs CPU double reference: energy after the first
 * iterations, relative (paths part later), and final minima (kcal/mol). */
#define TOL_LBFGS_TRACE_REL   1e-4
#define TOL_LBFGS_MINIMUM_ABS 1e-3
/* UFF surfaces (docs/UFF_SURFACES.md). */
#define TOL_GRID_ENERGY_ABS 5e-3 /* kcal/mol per molecule, grid vs direct at 0.1 A */
#define TOL_GRID_FORCE_RMS  2e-3 /* RMS-relative, grid vs direct at 0.1 A */
#define TOL_FD_FORCE_RMS    1e-6 /* reference forces vs central differences */

/* CPU double UFF reference vs RDKit 2022.09's UFF (both double, on the same
 * 4-decimal coordinates). */
#define TOL_RDKIT_ENERGY_REL 1e-4 /* total and per-term energies, relative */
#define TOL_RDKIT_ENERGY_ABS 1e-3 /* kcal/mol, for energies near zero */
#define TOL_RDKIT_GRAD_RMS   1e-4 /* RMS(g - g_rdkit) / RMS(g_rdkit) */
#define TOL_RDKIT_PARAM_REL  1e-8 /* term parameters (the data keep 10 significant digits) */

/* Replica exchange (engine/run/remd.h) on sampled toys and on MD: counts of
 * independent trials are checked within this many standard errors (a
 * deterministic seed, so a pass stays a pass). */
#define TOL_REMD_SIGMAS 5.0
/* Fraction of attempts a replica spends at each temperature index vs 1/R,
 * absolute (index walks are correlated over ~R^2 / acceptance attempts). */
#define TOL_REMD_OCCUPANCY 0.03
/* REMD of a molecule (tests/test_mpi_remd.sh): observed acceptance vs the one
 * predicted from the replicas' energy distributions, in combined standard
 * errors (fewer, correlated attempts than the toy's). */
#define TOL_REMD_MD_SIGMAS 3.0

#endif
