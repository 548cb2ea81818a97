/* CPU double-precision reference of the FIRE minimiser (sim/minimize.h):
 * the oracle for the device's (shaders/minimize_fire.comp), the same
 * algorithm, parameters and order of operations step for step, in double,
 * with vkmd_ref_compute (ref/ref.h) as the forces and ref_constraints_*
 * (ref/ref_md.h) as the constraints. No Vulkan here. */
#ifndef VKMD_REF_REF_MINIMIZE_H
#define VKMD_REF_REF_MINIMIZE_H

#include "system/fire_settings.h"
#include "system/constraints.h"
#include "system/ff_settings.h"
#include "system/system.h"

/* Minimises `sys` (masses and parameters; its positions are not used) from
 * pos ([3 * atom_count] A, overwritten with the final positions), with `s`
 * resolved, `set` the constraints (NULL: none) and `d` (NULL: defaults).
 * Fills *out (batches and list_regrowths 0); d->progress, if set, is called
 * at every iteration. Not converging within max_iterations is no error.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (parameters, a mass <= 0),
 * VKMD_ERROR_NUMERIC (non-finite forces, naming the iteration), errors of
 * vkmd_ref_compute and of the constraints, VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result ref_minimize_run(const vkmd_system *sys, const vkmd_ff_settings *s,
                             const vkmd_constraint_set *set, const vkmd_minimize_desc *d,
                             double *pos, vkmd_minimize_result *out);

#endif
