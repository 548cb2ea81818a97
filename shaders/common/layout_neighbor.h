/* Layouts of the neighbor module, shared by C and GLSL: included by
 * common/vkmd_layout.h (which defines VKMD_VEC4 etc.); same rules as there
 * (vec4/uvec4 records, push-constant field-list macros, _Static_assert every
 * size and offset on the C side under __STDC__).
 *
 * The list (engine/forces/pass_neighbor.h has the design): atoms live in "slots",
 * sorted spatially; slots are grouped into clusters of VKMD_NL_CLUSTER_SIZE
 * consecutive slots. The list holds cluster pairs (tiles) once each (by ci or
 * cj: nl_build.comp owns()):
 * entry = uvec4(cj | kind << 31, offset x, y, z as float bits), where offset
 * takes a position relative to cj's anchor into ci's anchor frame (anchor
 * difference plus the periodic image of the pair), and a uvec2 mask of the
 * 64 lane pairs in rotated order: bit 8 l + k is the pair (lane l of ci,
 * lane (l + k) % 8 of cj); a clear bit is an excluded pair, a padding slot,
 * the second copy of a pair inside a diagonal tile, or a self pair. Kind 1
 * marks a tile whose pairs need the minimum image pair by pair (small boxes).
 * Each cluster owns a fixed stride of entries in each of two lists: the outer
 * list (radius cutoff + skin + outer skin, built rarely) and the inner list
 * (radius cutoff + skin, pruned from the outer one every few steps); in both,
 * kind-0 tiles fill the stride from the front and kind-1 tiles from the back. */
#ifndef VKMD_LAYOUT_NEIGHBOR_H
#define VKMD_LAYOUT_NEIGHBOR_H

#define VKMD_NL_CLUSTER_SIZE   8           /* atoms per cluster, lanes per tile */
#define VKMD_NL_MAX_SLOTS      (1u << 24)  /* slots (clusters < 2^21: entry bits 0..30) */
#define VKMD_NL_EMPTY          0xFFFFFFFFu /* order[] value of a padding slot */
#define VKMD_NL_KIND_BIT       0x80000000u /* entry.x: per-pair minimum image */
#define VKMD_NL_WORKGROUP_SIZE 64          /* default for every nl_*.comp */
#define VKMD_NL_SCAN_WORKGROUP 256         /* nl_scan.comp MODE ROWSCAN: one workgroup */
#define VKMD_NL_EXCL_TILES     32          /* tiles with excluded pairs per i-cluster, at most */
#define VKMD_NL_FAR            1.0e5       /* A: the relative position of a padding slot */
#define VKMD_NL_GATE_WORDS     256         /* gate words: steps of a gated batch, at most */
#define VKMD_NL_PREDICT_STEPS                                                                      \
    1.5 /* a check's look ahead: displacement since the build                                      \
           plus this many times the last step's motion */

/* ---- Specialization-constant ids (8..15) -------------------------------- */
#define VKMD_SPEC_NL_MODE 8 /* nl_check / nl_scan / nl_sort: which kernel of the file */

#define VKMD_NL_MODE_CHECK_DISPLACEMENT                                                            \
    0 /* nl_check: max displacements, then the decision                                            \
         (the rebuild dispatches follow; the gather after) */
#define VKMD_NL_MODE_CHECK_GATHER                                                                  \
    1                                /* nl_check: the same and the gather, by slot (no             \
                                        rebuild follows: one due marks the state missed) */
#define VKMD_NL_MODE_SCAN_ROWS     0 /* nl_scan: per-row scan of the cell counts */
#define VKMD_NL_MODE_SCAN_ROWSCAN  1 /* nl_scan: scan of the padded row totals */
#define VKMD_NL_MODE_SORT_SCATTER  0 /* nl_sort: atoms to slots */
#define VKMD_NL_MODE_SORT_CELLS    1 /* nl_sort: order each cell by atom index */
#define VKMD_NL_MODE_SORT_CLUSTERS 2 /* nl_sort: anchors, relative slots, boxes */

/* ---- Bindings (every nl_*.comp uses this one layout) --------------------- */
#define VKMD_NL_BINDING_POSITIONS 0 /* vec4 [atom_count], the caller's, xyz in A */
#define VKMD_NL_BINDING_STATE     1 /* vkmd_nl_state: counters, box of the last build */
#define VKMD_NL_BINDING_SAVED                                                                      \
    2                              /* vec4 [3 * atom_count]: positions at the last build, at the   \
                                      last prune, at the last check */
#define VKMD_NL_BINDING_ATOM_KEY 3 /* uint [2 * atom_count]: cell key | rank in the cell */
#define VKMD_NL_BINDING_CELLS    4 /* uint [2 * cell_count]: count | slot start in the row */
#define VKMD_NL_BINDING_ROWS     5 /* uint [3 * row_count]: rank of row (cy, cz) | atoms | slot */
#define VKMD_NL_BINDING_ORDER    6 /* uint [slot_capacity]: atom in each slot or EMPTY */
#define VKMD_NL_BINDING_SLOT_OF  7 /* uint [atom_count]: slot of each atom */
#define VKMD_NL_BINDING_REL                                                                        \
    8 /* vec4 [2 * slot_capacity]: [s] the wrapped position at the build (then, from the           \
         cluster pass, relative to the anchor: |x| <= box / 2; w 1 atom, 0 padding);               \
         [slot_capacity + s] the current position relative to the anchor (gather) */
#define VKMD_NL_BINDING_CLUSTER                                                                    \
    9 /* vec4 [3 * cluster_capacity]: anchor (xyz on the 1/8 A grid, w atoms), bounding box        \
         lo, hi (relative to the anchor) */
#define VKMD_NL_BINDING_EXCL  10 /* uint [atom_count + 1 + 2 * exclusions]: CSR start | list */
#define VKMD_NL_BINDING_OUTER 11 /* uvec4 [cluster_capacity * outer_stride] entries */
#define VKMD_NL_BINDING_INNER 12 /* uvec4 [cluster_capacity * inner_stride] entries */
#define VKMD_NL_BINDING_MASKS                                                                      \
    13 /* uvec2 [cluster_capacity * (outer_stride + inner_stride)]: outer masks, inner masks */
#define VKMD_NL_BINDING_COUNTS                                                                     \
    14 /* uvec4 [cluster_capacity]: outer kind 0, outer kind 1, inner kind 0, inner kind 1 */
#define VKMD_NL_BINDING_ARGS                                                                       \
    15 /* uvec4 [VKMD_NL_DISPATCH_COUNT]: indirect dispatch args, then uvec4 [1] flags: x rebuilt  \
          in this check, y pruned */
#define VKMD_NL_BINDING_POSITIONS_X 16 /* uvec4 [2 * atom_count]: split parts (positions.glsl) */
#define VKMD_NL_BINDING_EXCL_TILES                                                                 \
    17 /* uvec4 [VKMD_NL_EXCL_TILES * cluster_capacity]: per cluster, the clusters it pairs with   \
          excluded pairs in its tiles (cj, bits to clear x, y, -), cj EMPTY after the last */
#define VKMD_NL_BINDING_GATE                                                                       \
    18 /* uint [VKMD_NL_GATE_WORDS]: step s of a gated batch runs while word s is 0 (the           \
          predicate of its conditional rendering); a check that halts the batch sets the words     \
          of the steps after its own */
#define VKMD_NL_BINDING_COUNT 19

/* Dispatches whose group counts the check's decision writes (x, 1, 1), or
 * (0, 1, 1) when not due: the six rebuild steps and the prune. */
#define VKMD_NL_DISPATCH_BIN      0
#define VKMD_NL_DISPATCH_ROWS     1
#define VKMD_NL_DISPATCH_ROWSCAN  2
#define VKMD_NL_DISPATCH_SCATTER  3
#define VKMD_NL_DISPATCH_CELLS    4
#define VKMD_NL_DISPATCH_CLUSTERS 5
#define VKMD_NL_DISPATCH_BUILD    6
#define VKMD_NL_DISPATCH_PRUNE    7
#define VKMD_NL_DISPATCH_COUNT    8

/* Device-side state: counters read back by vkmd_neighbor_stats_read and
 * the box of the last build. The host writes halt, batch_checks and predict
 * at the start of a gated MD batch (vkmd_neighbor_record_gate_open). */
#define VKMD_NL_STATE_FIELDS                                                                       \
    VKMD_UINT max_disp2;    /* float bits: largest squared displacement since the build */         \
    VKMD_UINT force;        /* 1: the next check rebuilds */                                       \
    VKMD_UINT builds;       /* rebuilds since create */                                            \
    VKMD_UINT checks;       /* checks since create */                                              \
    VKMD_UINT overflow;     /* 1 once any cluster needed more entries than its stride */           \
    VKMD_UINT max_count;    /* largest outer entries per cluster any build needed */               \
    VKMD_UINT slot_count;   /* slots in use after the last build (atoms + row padding) */          \
    VKMD_UINT last_disp2;   /* float bits: squared displacement since the build, last check */     \
    VKMD_VEC4 build_box;    /* box edges at the last build (a change forces a rebuild) */          \
    VKMD_UINT done_groups;  /* check workgroups finished; the last one decides, resets it */       \
    VKMD_UINT prunes;       /* prunes since create (each build is followed by one) */              \
    VKMD_UINT max_disp2_p;  /* float bits: largest squared displacement since the prune */         \
    VKMD_UINT max_inner;    /* largest inner entries per cluster any prune kept */                 \
    VKMD_UINT tiles_inner;  /* inner tiles after the last prune */                                 \
    VKMD_UINT tiles_outer;  /* outer tiles after the last build */                                 \
    VKMD_UINT max_ahead2;   /* float bits: largest squared look-ahead displacement (predict) */    \
    VKMD_UINT prune_now;    /* 1: the last check asked for a prune (the fused force pass) */       \
    VKMD_UINT missed;       /* 1: a rebuild was due where none was recorded */                     \
    VKMD_UINT halt;         /* 1: a check of this batch halted it (the next check rebuilds) */     \
    VKMD_UINT batch_checks; /* checks since the batch began (the steps it ran) */                  \
    VKMD_UINT predict;      /* 1: checks look ahead and halt the batch (a gated MD batch) */       \
    VKMD_UINT halts;        /* halts since create */                                               \
    VKMD_UINT pad0;                                                                                \
    VKMD_UINT pad1;                                                                                \
    VKMD_UINT pad2;

/* One push-constant block for every nl_*.comp.
 * box: edges in A (float); w = outer list radius (cutoff + skin + outer
 *   skin) in A.
 * box_lo: edge minus box.xyz (the rounding of each edge); w = inner list
 *   radius (cutoff + skin) in A.
 * grid: cells along x, rows along y and z (rows are x-lines of cells), cells.
 * cell: cell edges in A (x, y, z); w = squared displacement since the build
 *   that triggers a rebuild (A^2).
 * sizes: atom_count, slot_capacity, cluster_capacity, outer_stride.
 * limits: inner_stride; trigger of a prune (squared displacement since the
 *   prune, float bits); the cutoff in A (float bits), largest displacement
 *   from the build a list allows (A, float bits).
 * groups_a, groups_b: group counts of the dispatches (VKMD_NL_DISPATCH_*). */
#define VKMD_NL_PUSH_FIELDS                                                                        \
    VKMD_VEC4 box;                                                                                 \
    VKMD_VEC4 box_lo;                                                                              \
    VKMD_UVEC4 grid;                                                                               \
    VKMD_VEC4 cell;                                                                                \
    VKMD_UVEC4 sizes;                                                                              \
    VKMD_UVEC4 limits;                                                                             \
    VKMD_UVEC4 groups_a;                                                                           \
    VKMD_UVEC4 groups_b;

#ifdef __STDC__
typedef struct vkmd_nl_state {
    VKMD_NL_STATE_FIELDS
} vkmd_nl_state;
typedef struct vkmd_nl_push {
    VKMD_NL_PUSH_FIELDS
} vkmd_nl_push;

_Static_assert(offsetof(vkmd_nl_state, max_disp2) == 0, "state.max_disp2 at 0");
_Static_assert(offsetof(vkmd_nl_state, force) == 4, "state.force at 4");
_Static_assert(offsetof(vkmd_nl_state, builds) == 8, "state.builds at 8");
_Static_assert(offsetof(vkmd_nl_state, last_disp2) == 28, "state.last_disp2 at 28");
_Static_assert(offsetof(vkmd_nl_state, build_box) == 32, "state.build_box at 32");
_Static_assert(offsetof(vkmd_nl_state, done_groups) == 48, "state.done_groups at 48");
_Static_assert(offsetof(vkmd_nl_state, prunes) == 52, "state.prunes at 52");
_Static_assert(offsetof(vkmd_nl_state, tiles_outer) == 68, "state.tiles_outer at 68");
_Static_assert(offsetof(vkmd_nl_state, max_ahead2) == 72, "state.max_ahead2 at 72");
_Static_assert(offsetof(vkmd_nl_state, missed) == 80, "state.missed at 80");
_Static_assert(offsetof(vkmd_nl_state, halt) == 84, "state.halt at 84");
_Static_assert(offsetof(vkmd_nl_state, batch_checks) == 88, "state.batch_checks at 88");
_Static_assert(offsetof(vkmd_nl_state, predict) == 92, "state.predict at 92");
_Static_assert(sizeof(vkmd_nl_state) == 112, "state is 112 bytes");
_Static_assert(offsetof(vkmd_nl_push, box_lo) == 16, "push.box_lo at 16");
_Static_assert(offsetof(vkmd_nl_push, grid) == 32, "push.grid at 32");
_Static_assert(offsetof(vkmd_nl_push, cell) == 48, "push.cell at 48");
_Static_assert(offsetof(vkmd_nl_push, sizes) == 64, "push.sizes at 64");
_Static_assert(offsetof(vkmd_nl_push, limits) == 80, "push.limits at 80");
_Static_assert(offsetof(vkmd_nl_push, groups_a) == 96, "push.groups_a at 96");
_Static_assert(offsetof(vkmd_nl_push, groups_b) == 112, "push.groups_b at 112");
_Static_assert(sizeof(vkmd_nl_push) == 128, "nl push constants are 128 bytes");
_Static_assert(VKMD_NL_DISPATCH_COUNT <= 8, "group counts fit groups_a and groups_b");
_Static_assert(VKMD_NL_CLUSTER_SIZE == 8, "masks and rotations assume 8-lane tiles");
#endif

#endif
