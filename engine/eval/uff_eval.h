/* UFF energies, forces and relaxations of many replicas on the CPU double
 * reference (one replica at a time) or on a Vulkan device (sim/uff_replicas.h:
 * batches of up to replicas_per_batch replicas, one dispatch each), with the
 * same outputs, plus the device's per-interaction details of one replica and
 * the surface interaction of replicas placed above a substrate. What a client
 * offering `--device cpu|auto|N` evaluates with: `vkmd uff energy|scan|relax`
 * and `vkmd-mpi uff scan|relax`.
 *
 * The eval module is the one place outside the oracle that calls the CPU
 * reference (ref/): a client's `--device cpu`. It is not part of libvkmd.so
 * (nothing behind the public API calls it), and run/ and api/ cannot use it. */
#ifndef VKMD_EVAL_UFF_EVAL_H
#define VKMD_EVAL_UFF_EVAL_H

#include "io/uff_surface_setup.h"
#include "system/uff_relax_set.h"
#include "system/uff_terms.h"
#include "system/uff_typing.h"
#include "sim/uff_relax.h"
#include "sim/uff_replicas.h"
#include "vk/context.h"

#include <stddef.h>

typedef struct vkmd_uff_eval {
    vkmd_vk_context *ctx;       /* NULL: the CPU reference */
    char device[320];           /* for reports: "cpu (double-precision reference)" or the device */
    int32_t replicas_per_batch; /* 0: all replicas of a call in one batch */
    int32_t debug_replica;      /* -1: none; else the replica (0-based) to record details of */
    int32_t batches;            /* dispatches made so far */
    int32_t done;               /* replicas with results after the last vkmd_uff_eval_run: all
                                   of them, or the first ones when it was stopped */
} vkmd_uff_eval;

/* Opens the evaluator for `device`: "cpu"; "auto": the best Vulkan device,
 * or the CPU reference when there is none (note in out->device); otherwise a
 * Vulkan device by index or name substring (vkmd devices). Errors: those of
 * vkmd_vk_context_create (VKMD_ERROR_NO_DEVICE names what exists). */
vkmd_result vkmd_uff_eval_open(const char *device, vkmd_uff_eval *out);

/* The same with `base` (may be NULL) as the context description, e.g. one
 * a viewer filled in to present; base->device is ignored. */
vkmd_result vkmd_uff_eval_open_desc(const char *device, const vkmd_vk_context_desc *base,
                                    vkmd_uff_eval *out);

/* Checks the validation layer's count (VKMD_ERROR_VALIDATION) and closes.
 * Safe on a zeroed or closed evaluator. */
vkmd_result vkmd_uff_eval_close(vkmd_uff_eval *ev);

/* Energies out_energy[r] and forces out_forces[r] ([3 * atoms] kcal/mol/A;
 * out_forces or any entry may be NULL) of `count` replicas. When
 * ev->debug_replica is one of them, *out_debug receives its records
 * (malloc'd, *out_debug_count of them; free()) computed on the device;
 * both may be NULL otherwise. Errors: VKMD_ERROR_NUMERIC (a non-finite CPU
 * energy), VKMD_ERROR_INVALID_ARGUMENT (debug replica on the CPU),
 * VKMD_ERROR_STOPPED (a stop request between batches, or between replicas
 * on the CPU: the first ev->done have results), pass and Vulkan errors. */
vkmd_result vkmd_uff_eval_run(vkmd_uff_eval *ev, const vkmd_uff_terms *const *mols,
                              int32_t mol_count, const vkmd_uff_replica *reps, int32_t count,
                              vkmd_uff_energy *out_energy, double *const *out_forces,
                              vkmd_uff_debug_record **out_debug, int32_t *out_debug_count);

/* vkmd_uff_relax_batch's minimiser (params) on the CPU in double for one
 * molecule (ref/ref_uff_lbfgs.h or ref/ref_uff_fire.h): xyz ([3 *
 * t->atom_count] A) relaxed in place, *out as the device fills a replica's
 * report. Errors: those of the reference minimiser. */
vkmd_result vkmd_uff_eval_relax_reference(const vkmd_uff_terms *t,
                                          const vkmd_uff_relax_params *params, double *xyz,
                                          vkmd_uff_relax_result *out);

/* Relaxes every replica of `set` from set->start into final ([3 * batch
 * atoms] A, batch order) and out[replica]: one batch on ev's device
 * (vkmd_uff_relax_batch; *out_checks, may be NULL, its host checks), or
 * replica after replica with vkmd_uff_eval_relax_reference (a stop request
 * ends the loop between replicas: the rest keep their start, not converged
 * after no iteration). Errors: theirs. */
vkmd_result vkmd_uff_eval_relax(const vkmd_uff_eval *ev, const vkmd_uff_relax_set *set,
                                const vkmd_uff_relax_params *params, double *final,
                                vkmd_uff_relax_result *out, int32_t *out_checks);

/* The surface interaction of `count` replicas (types[m], mols[m] of
 * molecule m; reps as vkmd_uff_eval_run) set up as `sd`
 * (io/uff_surface_setup.h: each replica translated in z so that its lowest
 * atom is sd->height_a above the top layer, x and y kept), on ev's device or
 * the CPU reference; an allocated grid is computed the same way first and,
 * with save_grid (may be NULL), saved there as XSF. Surface forces are
 * ADDED to forces[r] (forces or any entry may be NULL); out_energy[count]
 * kcal/mol, out_below[count] atoms below the grid; out_desc[desc_size] one
 * line describing the setup. Errors: those of the setup, the grid's
 * prefilter and save, pass and Vulkan errors; VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_uff_eval_surface(const vkmd_uff_eval *ev, const vkmd_uff_surface_setup_desc *sd,
                                  const char *save_grid, const vkmd_uff_typing *const *types,
                                  const vkmd_uff_terms *const *mols, int32_t mol_count,
                                  const vkmd_uff_replica *reps, int32_t count,
                                  double *const *forces, double *out_energy, int32_t *out_below,
                                  char *out_desc, size_t desc_size);

#endif
