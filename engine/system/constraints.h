/* Which distances a run holds fixed, derived from a system: rigid 3-site
 * waters (solved analytically by SETTLE) and bonds to hydrogen (grouped into
 * clusters around their heavy atom, solved per cluster). Shared by the CPU
 * reference (engine/maths/host_constraints.c) and the GPU passes
 * (engine/sim/sim_constraints.c), so both constrain exactly the same set.
 *
 * Why clusters and not a global solver (CCMA, LINCS): with H-bond
 * constraints only, two constraints are coupled only when they share a heavy
 * atom (a hydrogen has one bond), so the coupled sets are a heavy atom and
 * its 1..4 hydrogens. Each set is solved on its own to the tolerance (one
 * GPU thread per cluster, no global iteration, no coupling matrix to invert).
 *
 * Target distances come from the bonds' r0. A water's H-H distance comes from
 * its H-H bond when the topology has one (TIP3P prmtops do) and otherwise
 * from the H-O-H angle's theta0: d_hh = 2 d_oh sin(theta0 / 2). */
#ifndef VKMD_SYSTEM_CONSTRAINTS_H
#define VKMD_SYSTEM_CONSTRAINTS_H

#include "system/system.h"

#define VKMD_HCLUSTER_MAX 4 /* hydrogens per heavy atom (NH4+ has 4) */

/* A heavy atom and the hydrogens bonded to it. */
typedef struct vkmd_hcluster {
    int32_t center;               /* heavy atom */
    int32_t h_count;              /* 1..VKMD_HCLUSTER_MAX */
    int32_t h[VKMD_HCLUSTER_MAX]; /* hydrogens (unused entries -1) */
    double d[VKMD_HCLUSTER_MAX];  /* center-h[k] distance, A */
} vkmd_hcluster;

typedef struct vkmd_constraint_set {
    int32_t water_count; /* rigid waters (SETTLE) */
    vkmd_water *waters;  /* [water_count] o, h1, h2 */
    double water_d_oh;   /* A, the same for every water (checked) */
    double water_d_hh;   /* A */
    int32_t cluster_count;
    vkmd_hcluster *clusters;  /* [cluster_count], sorted by center */
    int32_t constraint_count; /* 3 per water + the sum of h_count */
} vkmd_constraint_set;

/* Builds the set for `sys`.
 *   rigid_water: every water in sys->waters becomes a SETTLE water.
 *   hbonds: every bond between a hydrogen (element 1) and another atom that
 *     is not already inside a rigid water becomes a cluster constraint (with
 *     rigid_water = 0, water O-H bonds become clusters: flexible angle).
 *     Bonds between two hydrogens (a TIP3P prmtop's H-H) are never cluster
 *     constraints. Hydrogens in a cluster are in ascending atom order.
 * Errors (VKMD_ERROR_INVALID_ARGUMENT, naming atoms by index, name and
 * residue): waters whose O-H or H-H distances differ from the first water's
 * by more than 1e-6 A, a water without an O-H bond, a hydrogen bonded to two
 * constrained partners, a heavy atom with more than VKMD_HCLUSTER_MAX
 * hydrogens, a zero or negative mass or r0, a rigid water whose two
 * hydrogens differ in mass (SETTLE as solved needs them equal);
 * VKMD_ERROR_OUT_OF_MEMORY. On failure *out is zeroed. */
vkmd_result vkmd_constraints_build(const vkmd_system *sys, int rigid_water, int hbonds,
                                   vkmd_constraint_set *out);

/* Frees and zeroes; safe on a zeroed struct. */
void vkmd_constraints_destroy(vkmd_constraint_set *set);

/* Degrees of freedom: 3 (N - vsite_count) - constraint_count - (com_removed ? 3 : 0). */
int64_t vkmd_constraints_dof(const vkmd_system *sys, const vkmd_constraint_set *set,
                             int com_removed);

#endif
