/* Hydrogen mass repartitioning: every hydrogen bonded to a heavy atom gets
 * mass `h_mass_amu`, the difference taken from that heavy atom, so the total
 * mass is unchanged and 4 fs steps are stable with H-bond constraints
 * (Hopkins et al., JCTC 2015). Waters are left alone, as OpenMM does: they
 * are rigid and a heavier water hydrogen would change the water model's
 * dynamics. */
#ifndef VKMD_SYSTEM_HMR_H
#define VKMD_SYSTEM_HMR_H

#include "system/system.h"

/* Errors: VKMD_ERROR_INVALID_ARGUMENT (h_mass_amu <= 0, or a heavy atom
 * whose mass would drop to 1 amu or less; the message names it), in which
 * case masses are unchanged. out_moved (may be NULL): hydrogens changed. */
vkmd_result vkmd_system_repartition_hydrogen_mass(vkmd_system *sys, double h_mass_amu,
                                                  int32_t *out_moved);

#endif
