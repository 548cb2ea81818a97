/* Quasi-Newton minimisation of many UFF replicas at once on a Vulkan device:
 * RDKit's BFGS (dense inverse Hessian per replica, the default) or L-BFGS
 * (m pairs per replica), with RDKit's backtracking line search and
 * convergence tests (system/uff_lbfgs_settings.h). The algorithm, step for
 * step, is the CPU double reference ref/ref_uff_lbfgs.h; the device side is
 * shaders/uff_lbfgs.comp after the multi-replica force pass
 * (forces/pass_uff.h), layouts in shaders/common/layout_uff_lbfgs.h.
 *
 * Every replica goes at its own pace: each force pass is one evaluation for
 * every running replica (its start or a line-search trial), and the kernel
 * after it moves each replica to its next trial. check_interval such pairs
 * are recorded in one command buffer (and check_interval / 8 in a second,
 * replayed instead once fewer than half the replicas run), replayed until
 * every replica has stopped; the host reads the per-replica state once per
 * replay. Stopped
 * replicas cost one early return in the kernel, but the force pass still
 * evaluates the whole batch (it has no per-replica mask).
 *
 * CPU devices (vkmd_uff_lbfgs_whole_replica) take another shape of the
 * same algorithm for dense BFGS: shaders/uff_relax_replica.comp, one
 * invocation per replica running the whole loop (its own energy and
 * gradient, line search, update, tests), a budget of evaluations per
 * dispatch (llvmpipe caps the loop iterations of an invocation), rounds of
 * dispatches recorded into one command buffer, each dispatch the whole
 * batch (a workgroup per SIMD vector of one molecule's replicas, spread
 * over the device's threads); stopped replicas cost nothing. The force
 * pass then only evaluates the start and the end. It takes molecules of up
 * to about 120 atoms (one evaluation of the dense update per dispatch); a
 * batch holding a larger one takes the per-evaluation kernel.
 *
 * Memory on the device: dense BFGS keeps (3 n)^2 floats per replica (22
 * atoms: 17 KiB); L-BFGS 2 m 3 n floats. Mixed batches (replicas of
 * different molecules) are supported: each replica has its own offset. */
#ifndef VKMD_SIM_UFF_LBFGS_H
#define VKMD_SIM_UFF_LBFGS_H

#include "core/result.h"
#include "system/uff_batch.h"
#include "system/uff_lbfgs_settings.h"

#include <stdint.h>

struct vkmd_vk_context;
typedef struct vkmd_uff_lbfgs vkmd_uff_lbfgs;

/* Sets up the force pass and minimiser state for `batch` (borrowed during
 * the call only) with `params` (NULL: defaults). Errors: those of
 * vkmd_pass_uff_create, VKMD_ERROR_INVALID_ARGUMENT (a parameter out of
 * range; curvature memory past 2^32 floats: use L-BFGS or split the batch),
 * Vulkan and memory errors. */
vkmd_result vkmd_uff_lbfgs_create(struct vkmd_vk_context *ctx, const vkmd_uff_batch *batch,
                                  const vkmd_uff_lbfgs_params *params, vkmd_uff_lbfgs **out_lbfgs);

/* Minimises every replica from `xyz` ([3 * batch atom_count] A, batch
 * order). out_xyz (may be NULL) receives the final coordinates (float plus
 * float correction, as double), out_results [replica_count] (may be NULL)
 * each replica's report, its energies and forces from the device at the
 * final coordinates. Runs again from new coordinates on each call. Errors:
 * Vulkan errors, VKMD_ERROR_NUMERIC (a non-finite coordinate; named). */
vkmd_result vkmd_uff_lbfgs_run(struct vkmd_vk_context *ctx, vkmd_uff_lbfgs *lbfgs,
                               const double *xyz, double *out_xyz,
                               vkmd_uff_relax_result *out_results);

/* 1 when vkmd_uff_lbfgs_create takes the whole-relaxation kernel
 * (shaders/uff_relax_replica.comp: one invocation relaxes one replica from
 * start to end in one dispatch, no per-evaluation passes or host checks)
 * for `memory` (dense BFGS, memory 0, only): by default on CPU devices
 * (lavapipe), where lanes are replicas and dispatches cost directly; GPUs
 * keep the per-evaluation kernel (a workgroup per replica after each
 * force pass). $VKMD_UFF_RELAX_REPLICA (1 / 0) overrides it, for tests and
 * figures. */
int vkmd_uff_lbfgs_whole_replica(const struct vkmd_vk_context *ctx, int32_t memory);

/* Host checks (command-buffer submissions) made by the last run. */
int32_t vkmd_uff_lbfgs_submissions(const vkmd_uff_lbfgs *lbfgs);

/* NULL: no-op. */
void vkmd_uff_lbfgs_destroy(struct vkmd_vk_context *ctx, vkmd_uff_lbfgs *lbfgs);

#endif
