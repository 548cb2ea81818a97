/* Settings and per-replica report of the L-BFGS minimiser of UFF replicas
 * (device: sim/uff_lbfgs.h; CPU double reference: ref/ref_uff_lbfgs.h), in
 * a module both can include. No Vulkan here.
 *
 * Convergence is RDKit's (Code/Numerics/Optimizer/BFGSOpt.h, 2022.09, with
 * the gradient scaling of ForceField.cpp's calcGradient), so `force_tol`
 * means what RDKit's forceTol means:
 *   - the gradient test, after each accepted line search: with g = dE/dx
 *     (kcal/mol/A), s = 0.1 and, when 0.1 max_i g_i > 10 (the signed
 *     largest component, as RDKit 2022.09), s halved until
 *     0.1 max_i g_i s <= 10; scaled gradient gs_i = 0.1 s g_i when s was
 *     halved, else 0.1 g_i; converged when
 *        max_i |gs_i| max(|x_i|, 1) / max(E s, 1) < force_tol
 *     (x_i in A, E in kcal/mol: the test depends on where the molecule
 *     sits, as RDKit's does);
 *   - the step test: converged when the accepted step has
 *     max_i |dx_i| / max(|x_i|, 1) < 1.2e-7 (RDKit's TOLX), or the line
 *     search could not lower the energy before its step fell below
 *     lambda_min (RDKit's "step too small", which it also reports as
 *     success; then the coordinates stay where they were);
 *   - energy_tol (RDKit accepts energyTol but its BFGS ignores it): when
 *     > 0, converged when |E_new - E_old| <= energy_tol max(|E_new|, 1);
 *   - max_iterations line searches (RDKit's maxIts; its
 *     UFFOptimizeMolecule default is 200).
 * An iteration is one accepted line search, as RDKit counts them; an
 * evaluation is one energy and gradient computation (the line search's
 * trials and the start). */
#ifndef VKMD_SYSTEM_UFF_LBFGS_SETTINGS_H
#define VKMD_SYSTEM_UFF_LBFGS_SETTINGS_H

#include "core/result.h"
#include "system/fire_settings.h"

#include <stdint.h>

#define VKMD_UFF_LBFGS_MAX_MEMORY 16 /* (s, y) pairs kept per replica, at most */

typedef struct vkmd_uff_lbfgs_params {
    double force_tol;       /* 1e-4: RDKit's forceTol (its scaled test, above) */
    double energy_tol;      /* 0: off (RDKit's BFGS ignores energyTol) */
    int32_t max_iterations; /* 1000 line searches per replica */
    /* 0: dense BFGS (RDKit's: the whole inverse Hessian, (3 n)^2 numbers per
     * replica); m in 1..VKMD_UFF_LBFGS_MAX_MEMORY: L-BFGS with m (s, y) pairs */
    int32_t memory;
    /* 0.3 A: no coordinate moves more than this in one line-search trial (d
     * scaled down to it before the search). RDKit has no such cap; it
     * keeps atoms from passing through each other on a huge first step
     * (d = -c g moves coordinates up to 10 A), where the device's float
     * energies and 64-bit fixed-point sums would overflow. */
    double max_step_a;
    int32_t check_interval; /* 64 evaluations recorded per command buffer (device) */
} vkmd_uff_lbfgs_params;

/* `p` (may be NULL) with every zero field replaced by its default. */
vkmd_uff_lbfgs_params vkmd_uff_lbfgs_params_resolve(const vkmd_uff_lbfgs_params *p);

/* VKMD_ERROR_INVALID_ARGUMENT naming the first parameter of a resolved set
 * that is out of range, else VKMD_OK. */
vkmd_result vkmd_uff_lbfgs_params_check(const vkmd_uff_lbfgs_params *p);

/* Why a replica stopped (vkmd_uff_relax_result.status). */
#define VKMD_UFF_RELAX_RUNNING    0      /* max_iterations (or the FIRE steps) ran out */
#define VKMD_UFF_RELAX_GRADIENT   1      /* the force test (RDKit's for L-BFGS, FIRE's ftol) */
#define VKMD_UFF_RELAX_STEP       2      /* step below TOLX, or the line search stalled */
#define VKMD_UFF_RELAX_ENERGY     3      /* energy_tol */
#define VKMD_UFF_RELAX_RDKIT_TOLX 1.2e-7 /* 4 x 3e-8, RDKit's TOLX */

/* Outcome of one replica's relaxation (L-BFGS or FIRE). */
typedef struct vkmd_uff_relax_result {
    double energy_initial; /* kcal/mol at the start */
    double energy_final;   /* kcal/mol at the final coordinates */
    double fmax;           /* max_a |F_a| at the final coordinates, kcal/mol/A */
    double frms;           /* RMS force there, kcal/mol/A */
    int32_t iterations;    /* accepted line searches (L-BFGS) or moves (FIRE) */
    int32_t evaluations;   /* energy + gradient evaluations, the start included */
    int32_t status;        /* VKMD_UFF_RELAX_* */
    int converged;         /* 1 unless max_iterations ran out */
} vkmd_uff_relax_result;

/* Largest and RMS per-atom force (kcal/mol/A) of `atoms` atoms from f
 * ([3 * atoms]); returns the sum of the squared norms. What the device
 * minimisers and their references report. */
double vkmd_uff_force_norms(const double *f, int32_t atoms, double *out_fmax, double *out_frms);

/* FIRE's report (system/fire_settings.h) as a relaxation report: one force
 * evaluation per move, plus the last. */
vkmd_uff_relax_result vkmd_uff_relax_result_of_fire(const vkmd_uff_fire_result *f);

/* RDKit's gradient scale for gradient g ([n]): returns s (above) and sets
 * *out_total to the factor that multiplies g (0.1, or 0.1 s when s was
 * halved). */
double vkmd_uff_rdkit_grad_scale(const double *g, int32_t n, double *out_total);

#endif
