/* Constraints on the device: SETTLE for rigid waters and SHAKE/RATTLE per
 * H-bond cluster, in one dispatch (shaders/constraints.comp), for the
 * set built by vkmd_constraints_build (system/constraints.h, which says why
 * clusters). The CPU oracle is ref_constraints_* (engine/ref/ref_md.h).
 *
 * Buffers (borrowed, owned by the MD state, engine/sim/md.h):
 *   positions     vec4 fp32 [atom_count], xyz A: constrained in place
 *   positions_ref vec4 fp32 [atom_count], xyz A: the positions before the
 *                 unconstrained update (directions of the constraint forces)
 *   velocities    vec4 fp32 [atom_count], xyz A/fs, w = 1 / mass (1/amu)
 * Molecules are whole (plain differences, no minimum image). */
#ifndef VKMD_SIM_SIM_CONSTRAINTS_H
#define VKMD_SIM_SIM_CONSTRAINTS_H

#include "system/constraints.h"
#include "vk/buffer.h"
#include "vk/context.h"

typedef struct vkmd_sim_constraints_desc {
    const vkmd_constraint_set *set;        /* required; copied to the device at create */
    const vkmd_vk_buffer *positions;       /* required */
    const vkmd_vk_buffer *positions_ref;   /* required */
    const vkmd_vk_buffer *velocities;      /* required */
    const vkmd_vk_buffer *positions_x;     /* split parts of positions; required for a split mode */
    const vkmd_vk_buffer *positions_ref_x; /* split parts of positions_ref; likewise */
    int positions_mode;                    /* VKMD_POSITIONS_FP32 (0), SPLIT_FLOAT, SPLIT_INT */
    double tol;                            /* relative; 0: 1e-5 */
    int force_staging;                     /* as in vkmd_vk_buffer_desc */
} vkmd_sim_constraints_desc;

typedef struct vkmd_sim_constraints vkmd_sim_constraints;

/* Errors: VKMD_ERROR_INVALID_ARGUMENT (missing buffer, tol <= 0 or >= 0.1),
 * Vulkan and memory errors. A set with no constraints is valid: the record
 * functions then record nothing. */
vkmd_result vkmd_sim_constraints_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                        const vkmd_sim_constraints_desc *desc,
                                        vkmd_sim_constraints **out_c);
void vkmd_sim_constraints_destroy(vkmd_vk_context *ctx, vkmd_sim_constraints *c);

/* Records the position constraint (waters and clusters in one dispatch:
 * they touch disjoint atoms); with
 * dt_fs > 0 also adds (x_constrained - x_unconstrained) / dt_fs to the
 * velocities. Ends with a compute barrier. */
void vkmd_sim_constraints_record_positions(const vkmd_sim_constraints *c, VkCommandBuffer cb,
                                           float dt_fs);

/* Records the velocity constraint (relative velocities along every
 * constraint removed). Ends with a compute barrier. */
void vkmd_sim_constraints_record_velocities(const vkmd_sim_constraints *c, VkCommandBuffer cb);

/* What the fused MD step (sim/step.h) binds: the device records and the
 * algorithms' parameters. Buffers owned by the constraints; a kind with
 * nothing to do has a NULL buffer. */
typedef struct vkmd_sim_constraints_view {
    const vkmd_vk_buffer *waters;   /* uvec4 [water_count] (o, h1, h2, 0) */
    const vkmd_vk_buffer *clusters; /* vkmd_hcluster_record [cluster_count] */
    uint32_t water_count, cluster_count;
    float d_hh, height; /* SETTLE: H-H distance, O height over the H-H line (A) */
    float tol;          /* clusters: relative tolerance */
    uint32_t max_iter;  /* clusters: Newton iterations at most */
} vkmd_sim_constraints_view;

void vkmd_sim_constraints_view_get(const vkmd_sim_constraints *c, vkmd_sim_constraints_view *out);

/* Dispatches recorded by one record_positions / record_velocities (0 or 1). */
uint32_t vkmd_sim_constraints_dispatch_count(const vkmd_sim_constraints *c);

#endif
