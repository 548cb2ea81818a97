/* The built-in test system "water:N" from the pre-equilibrated TIP3P tile
 * (assets/water_tip3p_216.pdb, made by vkmd itself: assets/water_tip3p_216.md):
 * N waters in a cube at 0.997 g/cm^3, TIP3P liquid equilibrated at 300 K
 * (for N = 216 exactly: it runs at 300 K from its first step, no
 * minimisation; other N, see below).
 *
 * N = 216 is the tile itself. Other N: the tile is replicated over a cube of
 * k^3 tiles (k = ceil((L + 3.6 A) / L0), L the target edge, L0 the tile's),
 * molecules ordered by the largest coordinate of their oxygen, and the first
 * T >= N kept (the cube [0, L')^3 holding exactly them, L' >= L). The T - N
 * extra molecules are removed greedily from the faces: at each step the one
 * in closest contact with another across a face of the periodic box of edge
 * L' (contact: the O-O distance, or the closest atom pair + 1.1 A if less;
 * ties: the outermost). Molecules are then moved rigidly, oxygens scaled by
 * L / L', to the exact edge. T starts at max(N, molecules with oxygen in
 * [0, L)^3) and grows until every contact across a face is at least
 * VKMD_WATER_TILE_MIN_OO_A after the scaling (oxygens 2.5 A apart, atoms
 * 1.4 A).
 *
 * The joins at the faces are not equilibrated, and the scaling compresses
 * (L / L' = 0.962 for N = 1000, 0.986 for 8000): such boxes start hot (on
 * lavapipe, water:1000 at 424 K after 0.1 ps, 358 K after 1 ps; water:8000
 * at 350 K after 0.1 ps) and need equilibration; only N = 216 (the
 * tile) starts at equilibrium.
 *
 * Parameters and atom order are water_box.h's (vkmd_water_box_topology); the
 * geometry of each molecule is the ideal rigid TIP3P one (O-H 0.9572 A,
 * H-O-H 104.52 degrees, rebuilt around the tile's oxygen, bisector and plane);
 * oxygens lie in [0, L), molecules are whole. Deterministic: no seed. */
#ifndef VKMD_SYSTEM_WATER_TILE_H
#define VKMD_SYSTEM_WATER_TILE_H

#include "core/result.h"
#include "system/system.h"

#include <stdint.h>

#define VKMD_WATER_TILE_ASSET    "water_tip3p_216.pdb" /* under assets/ */
#define VKMD_WATER_TILE_WATERS   216
#define VKMD_WATER_TILE_MIN_OO_A 2.5 /* A: oxygens across a face at least this far apart */

/* How a box was cut from the tile (vkmd_water_tile_build's out_stats). */
typedef struct vkmd_water_tile_stats {
    int32_t tiles_per_edge;   /* k */
    int32_t kept_before_trim; /* T */
    int32_t removed;          /* T - N */
    double cut_edge_a;        /* L', A */
    double scale;             /* L / L' (1 for N = 216) */
    double min_face_oo_a;     /* closest contact across a face in the result, A (the edge if
                                 none within 3.6 A) */
} vkmd_water_tile_stats;

/* Builds water:N from the tile into `out` (overwritten; free with
 * vkmd_system_destroy); out_stats (may be NULL) says how. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (n_waters < 1 or > VKMD_WATER_BOX_MAX_WATERS),
 * VKMD_ERROR_OUT_OF_MEMORY, VKMD_ERROR_PARSE (the embedded tile is missing or
 * malformed: a build problem), VKMD_ERROR_NUMERIC (no cut keeps oxygens
 * VKMD_WATER_TILE_MIN_OO_A apart across the faces; not seen, reported). */
vkmd_result vkmd_water_tile_build(int32_t n_waters, vkmd_system *out,
                                  vkmd_water_tile_stats *out_stats);

#endif
