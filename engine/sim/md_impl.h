/* The MD object's layout, private to the files that implement sim/md.h:
 * md.c (setup, settings, accessors), md_batch.c (recording and running
 * batches of steps), md_state.c (state in and out, box, saved states) and
 * md_profile.c (timed batches). Nothing outside engine/sim/md*.c includes
 * it. */
#ifndef VKMD_SIM_MD_IMPL_H
#define VKMD_SIM_MD_IMPL_H

#include "sim/md.h"
#include "sim/sim_constraints.h"
#include "sim/step.h"
#include "vk/command.h"
#include "vk/pipeline.h"
#include "vk/timer.h"

#define MD_BATCH_CACHE 8 /* recorded batches kept (step counts, COM, rebuild kinds) */

/* Where a batch records the neighbour list's rebuild dispatches. */
typedef enum md_rebuilds {
    MD_REBUILD_NONE = 0,  /* none: the list halts the batch instead (gated batches) */
    MD_REBUILD_FIRST = 1, /* at the first step (a gated batch after a halt or a new list) */
    MD_REBUILD_EVERY = 2  /* at every step (devices without conditional rendering; a batch
                             repeated after a missed rebuild) */
} md_rebuilds;

typedef struct md_batch {
    vkmd_vk_cmd cmd;
    int32_t steps; /* 0: empty slot */
    int with_com;
    md_rebuilds rebuilds;
    int energy; /* its last step sums the energies */
    uint64_t last_use;
} md_batch;

struct vkmd_md {
    const vkmd_system *sys;
    vkmd_md_desc desc; /* defaults resolved */
    vkmd_ff_settings settings;
    vkmd_forcefield *ff;
    vkmd_constraint_set cset;
    vkmd_sim_constraints *cons;
    vkmd_molecules mol;
    int32_t atom_count;
    int periodic;
    int gated; /* batches stop themselves where the list asks (md_batch.c) */
    double total_mass;
    int64_t dof;
    int64_t steps_done;
    /* The step whose energies the accumulators hold (-1: none yet). A batch
     * sums them at its last step only when asked (md_run_batch): at the end
     * of a vkmd_md_step call and before a barostat move. */
    int64_t energy_step;

    vkmd_vk_buffer pos_ref, vel, pos_backup, vel_backup, counter_backup;
    vkmd_vk_buffer pos_ref_x, pos_x_backup; /* split parts (split positions modes only) */
    vkmd_vk_buffer momentum, counter, molecule, shift, placeholder;
    vkmd_vk_pipeline pipe[VKMD_MD_MODE_COUNT];
    vkmd_vk_descset set[VKMD_MD_MODE_COUNT];
    vkmd_md_push push;
    md_batch batch[MD_BATCH_CACHE];
    uint64_t use_clock;
    vkmd_step *step; /* the fused step; NULL: pass by pass */
    int step_stale;  /* the fused step was made for another integrator or bath: re-create it */
    int64_t repeats; /* steps repeated for a missed rebuild (whole batches) */
    int64_t halts;   /* batches the list stopped early */
    char step_reason[192]; /* which step records and why (vkmd_md_step_reason) */
    vkmd_box cell;         /* the current box (starts as sys->box; vkmd_md_set_cell_state) */
    /* vkmd_md_save_state / vkmd_md_restore_state: a copy of the state between
     * steps (made on first use) */
    vkmd_vk_buffer kept_pos, kept_pos_x, kept_vel, kept_forces, kept_energies;
    vkmd_box kept_cell;
    int64_t kept_energy_step; /* energy_step when the state was kept */
    int kept;
    vkmd_barostat *baro; /* NULL: constant volume */
};

/* Timestamp marks of a profiled batch (md_profile.c); NULL in normal
 * batches. Mark k closes the interval (from[k], k] of pass[k]; the force
 * field's own marks sit in ff_slot[i] .. + VKMD_FORCEFIELD_TIMER_SLOTS. */
#define MD_PROFILE_MAX_STEPS      16
#define MD_PROFILE_SLOTS_PER_STEP (8 + VKMD_FORCEFIELD_TIMER_SLOTS)
#define MD_PROFILE_SLOTS          (MD_PROFILE_MAX_STEPS * MD_PROFILE_SLOTS_PER_STEP + 8)
enum { MD_PASS_FF_TOTAL = VKMD_MD_PASS_COUNT };
typedef struct md_marks {
    const vkmd_vk_timer *timer;
    uint32_t next, last;
    uint32_t from[MD_PROFILE_SLOTS];
    uint8_t pass[MD_PROFILE_SLOTS];
    uint32_t ff_slot[MD_PROFILE_MAX_STEPS];
    int32_t ff_count;
} md_marks;

/* md.c */
/* md.comp's pipelines and descriptor sets (again after the list grew: they
 * bind its state). */
vkmd_result md_create_pipelines(vkmd_vk_context *ctx, vkmd_md *md);
vkmd_result md_make_buffer(vkmd_vk_context *ctx, const vkmd_md *md, VkDeviceSize size,
                           const char *name, vkmd_vk_buffer *out);
void md_compute_push(vkmd_md *md);
vkmd_result md_upload_velocities(vkmd_vk_context *ctx, vkmd_md *md, const double *v);

/* md_batch.c */
/* Drops every recorded batch (they name buffers or constants that changed). */
void md_free_batches(vkmd_vk_context *ctx, vkmd_md *md);
/* The fused step when the device and system take it (re-created after the
 * list grows). */
vkmd_result md_create_step(vkmd_vk_context *ctx, vkmd_md *md);
/* After the neighbour list was made anew (it grew): recordings, md.comp's
 * descriptor sets and the fused step name the old one. */
vkmd_result md_list_changed(vkmd_vk_context *ctx, vkmd_md *md);
/* Evaluates the forces of the current positions (the invariant between
 * steps), growing the neighbour list if needed. */
vkmd_result md_prime_forces(vkmd_vk_context *ctx, vkmd_md *md);
/* Records a batch of `steps` into cmd (marks: a profiled batch, else NULL);
 * energy: its last step also sums the energies (the energy builds of the
 * passes, and the PME convolution with its energy instead of VkFFT's fused
 * one, so that step's forces round differently). */
vkmd_result md_record_batch(vkmd_vk_context *ctx, const vkmd_md *md, vkmd_vk_cmd *cmd,
                            int32_t steps, int with_com, md_rebuilds rebuilds, int energy,
                            md_marks *m);
/* The rebuild kind the next batch needs. */
vkmd_result md_next_rebuilds(vkmd_vk_context *ctx, const vkmd_md *md, md_rebuilds *out);
/* Records a batch of two steps, as the first would be, and throws it away
 * unsubmitted: its pipelines compile now (vk/pipeline.h compiles at the
 * first dispatch), at set-up, and not in the first batch, where a stop
 * request would wait for them (seconds on lavapipe). */
vkmd_result md_compile_batch(vkmd_vk_context *ctx, const vkmd_md *md);
/* Runs a batch of up to `steps` (own: record into it with marks m, else a
 * cached recording; energy as md_record_batch) and sets *out_run to the
 * steps it ran (fewer when the list halted it: then its last step, and the
 * energies, did not run). */
vkmd_result md_run_batch(vkmd_vk_context *ctx, vkmd_md *md, int32_t steps, int with_com, int energy,
                         md_marks *m, vkmd_vk_cmd *own, int32_t *out_run);
void md_copy_buffer(VkCommandBuffer cb, const vkmd_vk_buffer *src, const vkmd_vk_buffer *dst);

/* md_state.c */
/* The box into every constant and recording (no list rebuild, no forces). */
vkmd_result md_apply_box(vkmd_vk_context *ctx, vkmd_md *md, const vkmd_box *cell);
/* One barostat move at the current step (sim/barostat.h). */
vkmd_result md_barostat_attempt(vkmd_vk_context *ctx, vkmd_md *md);

#endif
