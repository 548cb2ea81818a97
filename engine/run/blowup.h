/* What went wrong when a run blows up (run/run.h stops at the first report
 * that vkmd_md_health_check, sim/md_health.h, finds bad): replays the steps after the last good
 * state one at a time on the device and names the first bad step, the
 * energy term that went non-finite or ran away, and the atoms with the
 * largest (or non-finite) force and velocity. */
#ifndef VKMD_RUN_BLOWUP_H
#define VKMD_RUN_BLOWUP_H

#include "sim/md.h"

/* Restores (x, v, md_step) and steps once at a time, at most `max_steps`,
 * until a report is bad; writes a message naming the run step (md_step -
 * base), the term and the atoms into msg. The device state is garbage
 * afterwards. Returns VKMD_OK when the message was made (also if the replay
 * did not reproduce the fault: the message then says so). */
vkmd_result vkmd_blowup_diagnose(vkmd_vk_context *ctx, vkmd_md *md, const vkmd_system *sys,
                                 const double *x, const double *v, int64_t md_step, int64_t base,
                                 int64_t max_steps, double t_target_k, char *msg, size_t size);

#endif
