/* CPU double-precision reference of the FIRE minimiser (sim/uff_fire.h) on
 * one UFF molecule: the oracle for the device's FIRE (shaders/uff_fire.comp),
 * the same algorithm and parameters step for step, in double, with the
 * double reference forces (ref/ref_uff.h). No Vulkan here. */
#ifndef VKMD_REF_REF_UFF_FIRE_H
#define VKMD_REF_REF_UFF_FIRE_H

#include "system/fire_settings.h"
#include "system/uff_terms.h"

/* Minimises `xyz` ([3 * t->atom_count] A, overwritten with the final
 * coordinates) with `params` (NULL: defaults); fills *out. Not converging
 * within max_steps is no error (out->converged = 0). Errors:
 * VKMD_ERROR_NUMERIC (a non-finite energy), VKMD_ERROR_OUT_OF_MEMORY,
 * VKMD_ERROR_INVALID_ARGUMENT (a parameter out of range). */
vkmd_result vkmd_ref_uff_fire(const vkmd_uff_terms *t, const vkmd_uff_fire_params *params,
                              double *xyz, vkmd_uff_fire_result *out);

#endif
