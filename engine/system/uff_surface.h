/* Molecules on surfaces for UFF replicas: a substrate periodic in x and y
 * (a slab, finite in z) and the interaction of every molecule atom with it,
 * host side (no Vulkan here; the device passes are forces/pass_uff_surface.h,
 * the double reference ref/ref_uff_surface.h).
 *
 * Substrates: built-in NaCl(001) (rock salt, a = 5.64 A, square surface cell
 * of 4 ions per layer, layers 2.82 A apart) and graphene (C-C 1.42 A,
 * rectangular cell 2.4595 x 4.26 A of 4 atoms), or an extended-XYZ file whose
 * comment line carries Lattice="ax ay az bx by bz cx cy cz" (a and b must lie
 * in the x-y plane; c is ignored: no periodicity in z). Every substrate is
 * shifted so that its topmost atom is at z = 0.
 *
 * Interaction (per molecule atom i and substrate atom s, summed over the
 * x-y images of s within the cutoff): UFF's own van der Waals parameters
 * with UFF's geometric combination, x_is = sqrt(x_i x_s), D_is =
 * sqrt(D_i D_s) (Rappe et al. 1992, the table in assets/), used either as
 *   LJ 12-6 (UFF's form):  E = D [(x/r)^12 - 2 (x/r)^6]
 *   Morse:                 E = D [exp(-2 alpha (r - x)) - 2 exp(-alpha (r - x))]
 *                          with alpha = 6 / x, the Morse curve with the same
 *                          well depth, position and curvature (72 D / x^2) as
 *                          the LJ one: a conversion of the UFF LJ pair, not a
 *                          separate fit.
 * Both are shifted by E(cutoff) so that the energy is continuous (0) at the
 * cutoff (default 12 A); the force has a jump of at most ~1e-4 kcal/mol/A
 * there. No Coulomb: the NaCl ions carry no charge in this model.
 *
 * Channels: the grid mode needs one potential per molecule atom type; a
 * surface is built for a list of UFF type labels (the channels) and each
 * molecule atom is mapped to its channel by label.
 *
 * Grid: values on nx x ny x nz points, x-y over the substrate cell in
 * fractional steps (periodic: point nx is point 0), z from z0 in steps dz
 * (default z0 = 1.0 A above the top atom, up to the cutoff above it, where
 * every value is exactly 0). Interpolated by a tricubic B-spline whose
 * coefficients are PREFILTERED so that the spline interpolates the values
 * (cubic interpolating B-spline): periodic in x and y (recursive filter with
 * pole sqrt(3) - 2, exact periodic initialisation), not-a-knot end
 * conditions in z (third derivative continuous at the second and the
 * second-to-last plane; one extra coefficient plane below and above). Above the grid the energy is
 * 0 (exact there); below it the point is clamped to the lowest plane and counted. */
#ifndef VKMD_SYSTEM_UFF_SURFACE_H
#define VKMD_SYSTEM_UFF_SURFACE_H

#include "common/vkmd_layout.h"
#include "core/result.h"
#include "system/uff_params.h"
#include "system/uff_typing.h"

#include <stdint.h>

typedef struct vkmd_uff_substrate {
    char name[128];                    /* "nacl", "graphene" or the file */
    double a[2], b[2];                 /* in-plane lattice vectors, A */
    int32_t atom_count;                /* >= 1 */
    int32_t *z;                        /* [atom_count] atomic numbers; owned */
    double *pos;                       /* [atom_count][3] A, top atom at z = 0; owned */
    char (*label)[VKMD_UFF_LABEL_MAX]; /* [atom_count] UFF types; owned */
} vkmd_uff_substrate;

/* NaCl(001) slab of `layers` layers (0: 2), top layer at z = 0.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (layers < 0 or > 20), memory. */
vkmd_result vkmd_uff_substrate_nacl(int32_t layers, vkmd_uff_substrate *out);

/* One graphene sheet at z = 0 (UFF type C_R). Errors: memory. */
vkmd_result vkmd_uff_substrate_graphene(vkmd_uff_substrate *out);

/* Allocates a substrate of n atoms named `name` (cell vectors zero, atoms
 * zeroed). Errors: VKMD_ERROR_OUT_OF_MEMORY (out zeroed). */
vkmd_result vkmd_uff_substrate_alloc(int32_t n, const char *name, vkmd_uff_substrate *out);

/* Sets atom i: element z, UFF label, position (A). */
void vkmd_uff_substrate_set(vkmd_uff_substrate *s, int32_t i, int32_t z, const char *label,
                            double x, double y, double zz);

/* Frees and zeroes. Safe on a zeroed struct. */
void vkmd_uff_substrate_free(vkmd_uff_substrate *s);

typedef struct vkmd_uff_surface_desc {
    int form;        /* VKMD_UFF_SURFACE_FORM_LJ (0); or _MORSE */
    double cutoff_a; /* 12 */
} vkmd_uff_surface_desc;

/* A substrate prepared for molecule atoms of `channel_count` UFF types. */
typedef struct vkmd_uff_surface {
    int form;
    double cutoff_a;
    double a[2], b[2];                         /* cell */
    double inv[2][2];                          /* fractional (u, v) = inv * (x, y) */
    int32_t channel_count;                     /* molecule atom types */
    char (*channel_label)[VKMD_UFF_LABEL_MAX]; /* [channel_count]; owned */
    int32_t kind_count;                        /* distinct substrate types */
    /* [channel_count * kind_count]: (D kcal/mol, r0 A, alpha 1/A, E(cutoff)) */
    double (*pair)[4];
    int32_t image_count;
    /* [image_count]: x, y, z A and kind of every substrate atom image that can
     * be within the cutoff of a point whose fractional x-y is in [0, 1)^2 */
    double (*image)[4];
} vkmd_uff_surface;

/* Builds the surface for the `label_count` channel labels (each must be in
 * `params`, no repeats). Errors: VKMD_ERROR_INVALID_ARGUMENT (bad form,
 * cutoff <= 0, unknown or repeated label), memory. */
vkmd_result vkmd_uff_surface_build(const vkmd_uff_substrate *sub,
                                   const vkmd_uff_param_table *params,
                                   const char (*labels)[VKMD_UFF_LABEL_MAX], int32_t label_count,
                                   const vkmd_uff_surface_desc *desc, vkmd_uff_surface *out);

/* Distinct labels of a typed molecule, in order of first appearance, into
 * out_labels (at most types->atom_count entries); returns the count. */
int32_t vkmd_uff_surface_labels(const vkmd_uff_typing *types,
                                char (*out_labels)[VKMD_UFF_LABEL_MAX]);

/* Channel of every atom of a typed molecule into out_channel [atom_count].
 * Errors: VKMD_ERROR_INVALID_ARGUMENT naming the atom whose type is not a
 * channel of the surface. */
vkmd_result vkmd_uff_surface_atom_channels(const vkmd_uff_surface *s, const vkmd_uff_typing *types,
                                           int32_t *out_channel);

/* Frees and zeroes. Safe on a zeroed struct. */
void vkmd_uff_surface_free(vkmd_uff_surface *s);

/* Pair energy and -(dE/dr)/r at squared distance r2 for pair params p (as in
 * vkmd_uff_surface.pair); 0 beyond cutoff2. */
double vkmd_uff_surface_pair(int form, const double p[4], double r2, double cutoff2,
                             double *out_f_over_r);

/* Wraps (x, y) into the cell: fractional coordinates in [0, 1) (out_u) and
 * the wrapped Cartesian x, y (out_xy). */
void vkmd_uff_surface_wrap(const vkmd_uff_surface *s, const double *xy, double out_u[2],
                           double out_xy[2]);

typedef struct vkmd_uff_surface_grid_desc {
    double spacing_a; /* 0.1: largest spacing; x and y divide the cell evenly */
    double z_min;     /* 0: 1.0 A above the top atom (z = 1.0); z of plane 0 */
    double z_max;     /* 0: the cutoff above the top atom; z of the last plane (at least) */
} vkmd_uff_surface_grid_desc;

typedef struct vkmd_uff_surface_grid {
    int32_t nx, ny, nz, channel_count;
    double a[2], b[2]; /* cell, A */
    double z0, dz;     /* plane k at z0 + k dz, A */
    int form;          /* VKMD_UFF_SURFACE_FORM_* the values were built with; -1 unknown (a file
                          without vkmd's comment line) */
    double cutoff_a;   /* the surface's cutoff, A; 0 unknown */
    char (*channel_label)[VKMD_UFF_LABEL_MAX]; /* [channel_count]; owned */
    float *values;                             /* [channel][nz][ny][nx] kcal/mol; owned */
    double *coef; /* [channel][nz + 2][ny][nx], plane k + 1 is k; NULL before prefilter */
} vkmd_uff_surface_grid;

/* Allocates the grid of `s` (values zeroed, no coefficients). desc may be
 * NULL. Errors: VKMD_ERROR_INVALID_ARGUMENT (spacing <= 0, z_max <= z_min,
 * fewer than 4 planes), memory. */
vkmd_result vkmd_uff_surface_grid_alloc(const vkmd_uff_surface *s,
                                        const vkmd_uff_surface_grid_desc *desc,
                                        vkmd_uff_surface_grid *out);

/* Points per channel (nx ny nz). */
static inline int64_t vkmd_uff_surface_grid_points(const vkmd_uff_surface_grid *g)
{
    return (int64_t)g->nx * g->ny * g->nz;
}

/* Computes the interpolating B-spline coefficients from the values
 * (replacing earlier ones). Errors: memory. */
vkmd_result vkmd_uff_surface_grid_prefilter(vkmd_uff_surface_grid *g);

/* Checks that a grid (e.g. loaded from a file) fits the surface: same cell,
 * pair form and cutoff (when the grid knows them) and a channel for every
 * channel of s, in the same order. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT saying what differs. */
vkmd_result vkmd_uff_surface_grid_check(const vkmd_uff_surface *s, const vkmd_uff_surface_grid *g);

/* Interpolated energy (kcal/mol) of channel c at Cartesian p (A) and its
 * gradient (kcal/mol/A) into out_grad (may be NULL). Needs coefficients.
 * *out_below (may be NULL) is set to 1 when p is below plane 0 (then
 * evaluated at plane 0's height). */
double vkmd_uff_surface_grid_eval(const vkmd_uff_surface_grid *g, int32_t c, const double p[3],
                                  double out_grad[3], int *out_below);

/* Frees and zeroes. Safe on a zeroed struct. */
void vkmd_uff_surface_grid_free(vkmd_uff_surface_grid *g);

#endif
