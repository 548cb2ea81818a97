/* The fused MD step for periodic systems with PME (shaders/step.comp,
 * shaders/forces.comp, common/layout_step.h): what engine/sim/md.c records
 * per step instead of the pass-by-pass sequence.
 *
 * One step (Langevin middle) is nine dispatches: step.comp (every unit
 * integrated with its constraints; per atom the charge spread, the
 * neighbour list's displacements and relative position, the force
 * accumulators cleared; the last workgroup decides on the list),
 * forces.comp (the pair tiles with the prune when due, the bonded terms,
 * the charge grid converted), VkFFT's forward transform (3), the PME
 * convolution, VkFFT's inverse (3); the next step.comp gathers the
 * reciprocal-space forces. The list's seven rebuild dispatches follow
 * step.comp only where the caller asks (VKMD_STEP_REBUILD: the first step
 * of a batch after the list halted the last one, sim/md_batch.c; empty
 * unless the check asks); the check marks the state `missed` if a rebuild
 * was due at a step without them (md_batch.c then repeats the batch with a
 * rebuild recorded at every step). A batch ends with the PME
 * gather into the force accumulator (so the accumulator holds the whole
 * force between batches, as after a pass-by-pass evaluation) and, for
 * Verlet, the closing half kick.
 *
 * Every piece runs the code of the pass-by-pass step on the same values, and
 * the list is checked, halts and rebuilds at the same steps in both, so the
 * two give the same bits on a CPU device (tests/test_md_fused.c). */
#ifndef VKMD_SIM_STEP_H
#define VKMD_SIM_STEP_H

#include "forces/forcefield.h"
#include "sim/sim_constraints.h"
#include "vk/context.h"

typedef struct vkmd_step_desc {
    vkmd_forcefield *ff;                     /* required: periodic, with PME */
    const vkmd_sim_constraints *constraints; /* required (may hold no constraints) */
    const vkmd_constraint_set *set;          /* required: the host set (free atoms) */
    const vkmd_vk_buffer *positions_ref;     /* required: vec4 [N] */
    const vkmd_vk_buffer *positions_ref_x;   /* split parts; required in split modes */
    const vkmd_vk_buffer *velocities;        /* required: vec4 [N], w = 1/m */
    const vkmd_vk_buffer *counter;           /* required: the step counter (md.comp) */
    int verlet;                              /* 0: Langevin middle; 1: velocity Verlet */
    float dt_fs, c1, c2;                     /* as md.comp's push constants */
    uint64_t seed;                           /* Philox key */
    int force_staging;                       /* as vkmd_vk_buffer_desc */
} vkmd_step_desc;

typedef struct vkmd_step vkmd_step;

/* Errors: VKMD_ERROR_UNSUPPORTED (a system without a box or PME: md.c then
 * records pass by pass), VKMD_ERROR_INVALID_ARGUMENT, Vulkan and memory
 * errors. Borrows every buffer and the force field: they must outlive it. */
vkmd_result vkmd_step_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                             const vkmd_step_desc *desc, vkmd_step **out_step);
void vkmd_step_destroy(vkmd_vk_context *ctx, vkmd_step *step);

#define VKMD_STEP_FIRST   1u /* first step of a batch: the accumulator holds the whole force */
#define VKMD_STEP_ENERGY  2u /* sum the energies of this step's evaluation */
#define VKMD_STEP_REBUILD 4u /* record the list's rebuild dispatches after the check */
#define VKMD_STEP_GATED                                                                            \
    8u /* inside a gated batch (the check's gate words to conditional                              \
          rendering; sim/md_batch.c) */

/* Pieces of a step, for profiles: mark(user, cb, piece) is called after
 * each (VKMD_STEP_PIECE_*). */
enum {
    VKMD_STEP_PIECE_STEP,     /* step.comp */
    VKMD_STEP_PIECE_REBUILD,  /* the list's rebuild dispatches */
    VKMD_STEP_PIECE_FORCES,   /* forces.comp */
    VKMD_STEP_PIECE_SPECTRAL, /* FFTs and the PME convolution */
    VKMD_STEP_PIECE_GATHER,   /* the batch's closing PME gather */
    VKMD_STEP_PIECE_CLOSE     /* Verlet's closing half kick */
};
typedef void (*vkmd_step_mark_fn)(void *user, VkCommandBuffer cb, int piece);

/* Records step `offset` of a batch (flags VKMD_STEP_*), with its barriers;
 * begins with a compute barrier and ends with the inverse FFT. mark may be
 * NULL. */
void vkmd_step_record(const vkmd_step *step, VkCommandBuffer cb, uint32_t offset, unsigned flags,
                      vkmd_step_mark_fn mark, void *user);

/* Records the end of a batch: the PME gather into the force accumulator
 * and, for Verlet, the closing half kick with the velocity constraints;
 * ends with a compute barrier. */
void vkmd_step_record_close(const vkmd_step *step, VkCommandBuffer cb, vkmd_step_mark_fn mark,
                            void *user);

/* Uploads the parameters that depend on the box (after a new box: call
 * vkmd_forcefield_set_box first). */
vkmd_result vkmd_step_update(vkmd_vk_context *ctx, vkmd_step *step);

#endif
