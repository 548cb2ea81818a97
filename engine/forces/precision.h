/* Precision modes: which position representation and which Lennard-Jones
 * arithmetic a run uses (docs/PRECISION.md has the measurements behind the
 * choices).
 *
 *   single  fp32 positions, fp32 LJ.
 *   mixed   split-float positions (shaders/common/positions.glsl), LJ in
 *           fp16 powers for pairs beyond 5 A where the device has fp16
 *           arithmetic and the calibration measures it faster, else fp32.
 *   fixed   split-int positions, fp32 LJ: with the fixed-point force sums,
 *           runs are bitwise reproducible and translation invariant.
 *   auto    (the default) mixed, with the LJ arithmetic chosen from the
 *           device's features and the calibration; the calibration also
 *           times fp32 positions, so that the cost of the split ones is
 *           printed beside the choice.
 *
 * The calibration builds the force field of the actual system in each
 * candidate configuration, without PME (the same work in every candidate),
 * and takes the fastest of a few GPU-timed evaluations of each (neighbour
 * list already built, as on most MD steps): about ten evaluations in all.
 *
 * fp16 LJ is chosen only when it measures at least 10 % faster, a margin
 * well beyond timing noise, so that the same command on the same device
 * keeps its choice. A CPU device (lavapipe) emulates fp16 in fp32, so it
 * is never chosen there and nothing is calibrated: the choice is mixed
 * with fp32 LJ and no timings (`vkmd bench --precision all` times the
 * modes side by side).
 *
 * Every command prints the choice and the timings (text and JSON); a
 * restart reuses the checkpoint's choice. The options that name positions
 * or the LJ arithmetic explicitly override the mode's pieces. */
#ifndef VKMD_FORCES_PRECISION_H
#define VKMD_FORCES_PRECISION_H

#include "system/ff_settings.h"
#include "system/system.h"
#include "vk/context.h"

#include <stdio.h>

typedef enum vkmd_precision {
    VKMD_PRECISION_AUTO = 0,
    VKMD_PRECISION_SINGLE = 1,
    VKMD_PRECISION_MIXED = 2,
    VKMD_PRECISION_FIXED = 3
} vkmd_precision;

/* Calibration candidates (timings in vkmd_precision_choice.ms). */
enum {
    VKMD_CALIB_SINGLE = 0,     /* fp32 positions, fp32 LJ */
    VKMD_CALIB_SPLIT = 1,      /* split-float positions, fp32 LJ */
    VKMD_CALIB_SPLIT_FP16 = 2, /* split-float positions, fp16-powers LJ beyond 5 A */
    VKMD_CALIB_COUNT = 3
};

#define VKMD_PRECISION_FP16_MIN_R_A 5.0 /* mixed's fp16 LJ: pairs at r >= 5 A */

typedef struct vkmd_precision_choice {
    vkmd_precision asked;
    vkmd_precision chosen;       /* single, mixed or fixed */
    int positions;               /* VKMD_POSITIONS_* */
    int nonbonded_fp16;          /* VKMD_LJ_* */
    double fp16_min_r_a;         /* A */
    double ms[VKMD_CALIB_COUNT]; /* GPU ms per force evaluation; < 0: not measured */
    char reason[256];            /* one line: why this choice */
} vkmd_precision_choice;

const char *vkmd_precision_name(vkmd_precision p);

/* "auto", "single", "mixed" or "fixed". Errors: VKMD_ERROR_INVALID_ARGUMENT. */
vkmd_result vkmd_precision_parse(const char *name, vkmd_precision *out);

/* Resolves `asked` for `sys` on `ctx` (required; the CPU reference is
 * double everywhere and has no modes). `base`
 * gives the other settings of the calibration force fields. auto and mixed
 * calibrate on a device (see the file comment). Errors: device errors of the
 * calibration, VKMD_ERROR_INVALID_ARGUMENT. */
vkmd_result vkmd_precision_choose(vkmd_vk_context *ctx, const vkmd_system *sys,
                                  vkmd_precision asked, const vkmd_ff_settings *base,
                                  vkmd_precision_choice *out);

/* What a user asks for: a mode and optional overrides of its pieces. Zero
 * means auto with no override. */
typedef struct vkmd_precision_request {
    vkmd_precision precision; /* AUTO */
    int positions_set;        /* 1: `positions` overrides the mode's positions */
    int positions;            /* VKMD_POSITIONS_* */
    int lj_set;               /* 1: `lj` and `lj_min_r_a` override the mode's LJ arithmetic */
    int lj;                   /* VKMD_LJ_* */
    double lj_min_r_a;        /* A: fp16 LJ forms for pairs at r >= this */
} vkmd_precision_request;

/* Resolves a request: vkmd_precision_choose (calibrating on ctx, required),
 * then the overrides (named in the choice's reason), then writes the result
 * into `s` (resolved settings) and `out`. Errors: as vkmd_precision_choose. */
vkmd_result vkmd_precision_resolve(const vkmd_precision_request *req, vkmd_vk_context *ctx,
                                   const vkmd_system *sys, vkmd_ff_settings *s,
                                   vkmd_precision_choice *out);

/* "fp32", "fp16" or "fp16-powers" (VKMD_LJ_*); NULL for another value. */
const char *vkmd_lj_form_name(int lj);

/* The inverse of vkmd_lj_form_name. Errors: VKMD_ERROR_INVALID_ARGUMENT. */
vkmd_result vkmd_lj_form_parse(const char *name, int *out_lj);

/* Writes the choice's positions and LJ fields into `s`. */
void vkmd_precision_apply(const vkmd_precision_choice *c, vkmd_ff_settings *s);

/* One line of text ("precision: mixed (asked auto): split-float positions,
 * fp32 LJ; calibration ms ...; reason") and a JSON object body (keys with
 * units, no braces) for the commands' outputs. */
void vkmd_precision_print(FILE *out, const vkmd_precision_choice *c);
void vkmd_precision_print_json(FILE *out, const vkmd_precision_choice *c);

#endif
