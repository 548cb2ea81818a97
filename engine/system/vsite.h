/* Virtual sites (AMBER extra points, EP/LP): massless atoms whose position is
 * a fixed function of parent atoms, rebuilt before every force evaluation;
 * the force on a site is handed to its parents (chain rule) and the site
 * keeps none.
 *
 * Kinds (the forms of OpenMM's ThreeParticleAverageSite and OutOfPlaneSite):
 *   VKMD_VSITE_AVERAGE3      x = w0 x0 + w1 x1 + w2 x2 (w0 + w1 + w2 = 1), built
 *                            as x0 + w1 r1 + w2 r2 with r_k = x_k - x0
 *   VKMD_VSITE_OUT_OF_PLANE  x = x0 + w0 r1 + w1 r2 + w2 (r1 x r2)
 * (for OUT_OF_PLANE w holds (w12, w13, wcross) as OpenMM names them).
 *
 * The prmtop stores no frames: vkmd_vsite_from_amber_waters derives them as
 * OpenMM's AMBER reader does, from water residues (one O, two H, one or two
 * massless atoms) and their bond lengths (O-H, H-H and O-EP). A massless atom
 * anywhere else has no frame and is refused. A site is never a parent.
 * Units: A. No Vulkan. */
#ifndef VKMD_SYSTEM_VSITE_H
#define VKMD_SYSTEM_VSITE_H

#include "system/system.h"

#define VKMD_VSITE_AVERAGE3     0
#define VKMD_VSITE_OUT_OF_PLANE 1

/* Finds the massless atoms of `sys` (mass 0: AMBER's extra points), derives
 * their frames from the water residues that hold them and fills
 * sys->vsites / sys->vsite_count (owned by sys). `source` names the file in
 * messages. Errors: VKMD_ERROR_UNSUPPORTED (a massless atom outside a water
 * residue, a water with more than two extra points), VKMD_ERROR_PARSE (a
 * bond needed for a frame is missing or has r0 <= 0),
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_vsite_from_amber_waters(vkmd_system *sys, const char *source);

/* Checks sys->vsites: indices in range, distinct parents, each site massless
 * and listed once, no site a parent, finite weights. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT naming the site. */
vkmd_result vkmd_vsite_check(const vkmd_system *sys, const char *source);

#endif
