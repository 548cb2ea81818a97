/* CPU double-precision reference of the L-BFGS minimiser of UFF molecules
 * (sim/uff_lbfgs.h, shaders/uff_lbfgs.comp): the same algorithm, line
 * search and RDKit convergence tests (system/uff_lbfgs_settings.h) step for
 * step, in double, with the double reference forces (ref/ref_uff.h). The
 * oracle of the device minimiser. No Vulkan here.
 *
 * The algorithm, per replica (x in A, g = dE/dx):
 *   start: E, g at x; d = -c g with c RDKit's gradient factor (0.1, smaller
 *     for huge gradients), RDKit's first BFGS step with an identity inverse
 *     Hessian on its scaled gradient;
 *   line search along d (RDKit's linearSearch, Numerical Recipes 9.7):
 *     slope = g.d (if >= 0, the history is dropped and d = -c g); d scaled
 *     down so that no coordinate moves more than max_step_a;
 *     lambda_min = 1e-7 / max_i(|d_i| / max(|x_i|, 1)); lambda = 1;
 *     try x + lambda d: accept when E_new - E <= 1e-4 lambda slope, or
 *     when |E_new - E| <= 1e-5 max(|E|, 1) (flat to float energies) and
 *     g_new.d < 0 (still downhill there), else
 *     backtrack (quadratic the first time, cubic after, lambda kept in
 *     [0.1, 0.5] of the previous); lambda < lambda_min: stalled. A stall
 *     along a quasi-Newton direction drops the curvature memory and
 *     searches once more along -c g (an iteration); a stall along that
 *     stops the replica where it was (converged, as RDKit reports it);
 *   after an accepted step s = lambda d, y = g_new - g: the convergence
 *     tests; (s, y) kept when s.y > sqrt(3e-8 |s|^2 |y|^2) (RDKit's
 *     curvature guard), the oldest dropped past `memory`;
 *   next direction d = -H g by the two-loop recursion (Nocedal and Wright,
 *     Numerical Optimization, algorithm 7.4) with H0 = (s.y / y.y) I from
 *     the newest pair (c I with no pairs).
 * Where this differs from RDKit: L-BFGS (memory pairs) in place of dense
 * BFGS (optional), the max_step_a cap, the flat-energy acceptance, the
 * steepest-descent retry after a
 * stall (RDKit stops at the first: on the device, float energies stall
 * along soft modes before RDKit's test is met), and the true gradient in the slope, the Armijo test
 * and the updates (RDKit uses its scaled gradient there, which only changes the line search's
 * constant by the scale). */
#ifndef VKMD_REF_REF_UFF_LBFGS_H
#define VKMD_REF_REF_UFF_LBFGS_H

#include "system/uff_lbfgs_settings.h"
#include "system/uff_terms.h"

/* Minimises `xyz` ([3 * t->atom_count] A, overwritten with the final
 * coordinates) with `params` (NULL: defaults); fills *out. Running out of
 * iterations is no error (out->converged = 0). *out_energy_trace, when
 * trace_count > 0, receives the energy (kcal/mol) after each of the first
 * trace_count iterations (the rest left as given). Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (a parameter out of range),
 * VKMD_ERROR_OUT_OF_MEMORY, those of vkmd_ref_uff_compute. */
vkmd_result vkmd_ref_uff_lbfgs(const vkmd_uff_terms *t, const vkmd_uff_lbfgs_params *params,
                               double *xyz, vkmd_uff_relax_result *out, double *out_energy_trace,
                               int32_t trace_count);

#endif
