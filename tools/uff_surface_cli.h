/* The --surface options of `vkmd uff energy` (tools/cmd_uff.c parses them):
 * check them, place every replica above the substrate, evaluate the surface
 * interaction (system/uff_surface.h) directly or through a potential grid, on the CPU
 * reference or on the Vulkan device the UFF evaluation uses, and print it. */
#ifndef VKMD_TOOLS_UFF_SURFACE_CLI_H
#define VKMD_TOOLS_UFF_SURFACE_CLI_H

#include "system/uff_terms.h"
#include "system/uff_typing.h"
#include "uff_eval.h"

#include <stdio.h>

typedef struct uff_surface_request {
    const char *spec;      /* --surface nacl|graphene|FILE.xyz; NULL: none */
    int mode;              /* --surface-mode: -1 unset (direct, or grid with a grid file) */
    int form;              /* --surface-form lj|morse: VKMD_UFF_SURFACE_FORM_* */
    double spacing;        /* --grid-spacing A; 0: 0.1 */
    double height;         /* --height A: lowest atom above the top layer; 0: 3.0 */
    const char *save_grid; /* --save-grid F.xsf */
    const char *load_grid; /* --load-grid F.xsf */
} uff_surface_request;

/* Zeroed request with mode unset. */
void uff_surface_request_init(uff_surface_request *req);

/* Consistency of the options (surface options without --surface, both
 * grid files, a grid file in direct mode). */
vkmd_result uff_surface_check(const uff_surface_request *req);

/* The options' help lines. */
void uff_surface_usage(FILE *out);

/* Evaluates the surface for `count` replicas (types[m], mols[m] of
 * molecule m; reps as uff_eval_run) on ev's device (ev->ctx) or the CPU.
 * Replica coordinates are translated in z so that their lowest atom is at
 * the requested height (x, y kept). Surface forces are ADDED to
 * forces[r] (entries may be NULL). out_energy [count] kcal/mol, out_below
 * [count] atoms below the grid; *out_desc a one-line description. */
vkmd_result uff_surface_run(const uff_surface_request *req, const uff_eval *ev,
                            const vkmd_uff_typing *const *types, const vkmd_uff_terms *const *mols,
                            int32_t mol_count, const vkmd_uff_replica *reps, int32_t count,
                            double *const *forces, double *out_energy, int32_t *out_below,
                            char *out_desc, size_t desc_size);

/* Prints the surface results (text lines, or with json a ",\n  \"surface\":
 * {...}" member without trailing newline). totals [count]: the UFF totals. */
void uff_surface_print(const uff_surface_request *req, const char *desc, const double *energy,
                       const int32_t *below, const vkmd_uff_energy *totals, int32_t count,
                       int json);

#endif
