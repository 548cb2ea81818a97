/* Layouts of the neighbor module, shared by C and GLSL: included by
 * common/vkmd_layout.h (which defines VKMD_VEC4 etc.); same rules as there
 * (vec4/uvec4 records, push-constant field-list macros, _Static_assert every
 * size and offset on the C side under __STDC__).
 *
 * The list (engine/forces/neighbor.h has the design): atoms live in "slots",
 * sorted spatially; slots are grouped into i-clusters of
 * VKMD_NL_CLUSTER_SIZE consecutive slots. Each cluster owns
 * `max_neighbors` list entries; entry = (j slot << 8) | mask, where bit l of
 * the mask says that the pair (atom in slot cluster*8 + l, atom in slot j)
 * is within the list radius at the last build and not excluded. */
#ifndef VKMD_LAYOUT_NEIGHBOR_H
#define VKMD_LAYOUT_NEIGHBOR_H

#define VKMD_NL_CLUSTER_SIZE   8           /* atoms per i-cluster = mask bits per list entry */
#define VKMD_NL_MASK_BITS      8           /* entry = (j_slot << VKMD_NL_MASK_BITS) | mask */
#define VKMD_NL_MAX_SLOTS      (1u << 24)  /* slots addressable by a list entry */
#define VKMD_NL_EMPTY          0xFFFFFFFFu /* order[] value of a padding slot */
#define VKMD_NL_WORKGROUP_SIZE 64          /* default for every nl_*.comp */
#define VKMD_NL_SCAN_WORKGROUP 256         /* nl_scan.comp MODE ROWSCAN: one workgroup */

/* ---- Specialization-constant ids (8..15) -------------------------------- */
#define VKMD_SPEC_NL_MODE 8 /* nl_check / nl_scan / nl_sort: which kernel of the file */

#define VKMD_NL_MODE_CHECK_DISPLACEMENT 0 /* nl_check: max displacement, then the decision */
#define VKMD_NL_MODE_SCAN_ROWS          0 /* nl_scan: per-row scan of the cell counts */
#define VKMD_NL_MODE_SCAN_ROWSCAN       1 /* nl_scan: scan of the padded row totals */
#define VKMD_NL_MODE_SORT_SCATTER       0 /* nl_sort: atoms to slots */
#define VKMD_NL_MODE_SORT_CELLS         1 /* nl_sort: order each cell by atom index */

/* ---- Bindings (every nl_*.comp uses this one layout) --------------------- */
#define VKMD_NL_BINDING_POSITIONS 0  /* vec4 [atom_count], the caller's, xyz in A */
#define VKMD_NL_BINDING_STATE     1  /* vkmd_nl_state: counters, box of the last build */
#define VKMD_NL_BINDING_SAVED     2  /* vec4 [atom_count]: positions at the last build */
#define VKMD_NL_BINDING_ATOM_KEY  3  /* uint [2 * atom_count]: cell key | rank in the cell */
#define VKMD_NL_BINDING_CELLS     4  /* uint [2 * cell_count]: count | slot start in the row */
#define VKMD_NL_BINDING_ROWS      5  /* uint [3 * row_count]: rank of row (cy, cz) | atoms | slot */
#define VKMD_NL_BINDING_ORDER     6  /* uint [slot_capacity]: atom in each slot or EMPTY */
#define VKMD_NL_BINDING_SLOT_OF   7  /* uint [atom_count]: slot of each atom */
#define VKMD_NL_BINDING_SPOS      8  /* vec4 [slot_capacity]: wrapped positions at the build */
#define VKMD_NL_BINDING_EXCL      9  /* uint [atom_count + 1 + 2 * exclusions]: CSR start | list */
#define VKMD_NL_BINDING_LIST      10 /* uint [cluster_capacity * max_neighbors] */
#define VKMD_NL_BINDING_COUNTS    11 /* uint [cluster_capacity] */
#define VKMD_NL_BINDING_ARGS      12 /* uvec4 [VKMD_NL_DISPATCH_COUNT]: indirect dispatch args */
#define VKMD_NL_BINDING_COUNT     13

/* Rebuild dispatches whose group counts the decide kernel writes (x, 1, 1)
 * when a rebuild is due and (0, 1, 1) otherwise. */
#define VKMD_NL_DISPATCH_BIN     0
#define VKMD_NL_DISPATCH_ROWS    1
#define VKMD_NL_DISPATCH_ROWSCAN 2
#define VKMD_NL_DISPATCH_SCATTER 3
#define VKMD_NL_DISPATCH_CELLS   4
#define VKMD_NL_DISPATCH_BUILD   5
#define VKMD_NL_DISPATCH_COUNT   6

/* Device-side state: counters read back by vkmd_neighbor_stats_read and
 * the box of the last build. The indirect dispatch arguments live in their
 * own buffer (VKMD_NL_BINDING_ARGS), written only by the decide kernel, so
 * the rebuild kernels' writes here need no indirect-read barrier. */
#define VKMD_NL_STATE_FIELDS                                                                       \
    VKMD_UINT max_disp2;   /* float bits of the largest squared displacement (atomicMax) */        \
    VKMD_UINT force;       /* 1: the next check rebuilds */                                        \
    VKMD_UINT builds;      /* rebuilds since create */                                             \
    VKMD_UINT checks;      /* checks since create */                                               \
    VKMD_UINT overflow;    /* 1 once any cluster needed more than max_neighbors entries */         \
    VKMD_UINT max_count;   /* largest entries-per-cluster any build needed */                      \
    VKMD_UINT slot_count;  /* slots in use after the last build (atoms + row padding) */           \
    VKMD_UINT last_disp2;  /* float bits of the squared displacement of the last check */          \
    VKMD_VEC4 build_box;   /* box edges at the last build (a change forces a rebuild) */           \
    VKMD_UINT done_groups; /* check workgroups finished; the last one decides, resets it */        \
    VKMD_UINT pad0;                                                                                \
    VKMD_UINT pad1;                                                                                \
    VKMD_UINT pad2;

/* One push-constant block for every nl_*.comp.
 * box: edges in A; w = list radius (cutoff + skin) in A.
 * grid: cells along x, rows along y and z (rows are x-lines of cells), cells.
 * cell: cell edges in A (x, y, z); w = squared displacement that triggers a
 *   rebuild (A^2).
 * sizes: atom_count, slot_capacity, cluster_capacity, max_neighbors.
 * groups: group counts of the rebuild dispatches (VKMD_NL_DISPATCH_*). */
#define VKMD_NL_PUSH_FIELDS                                                                        \
    VKMD_VEC4 box;                                                                                 \
    VKMD_UVEC4 grid;                                                                               \
    VKMD_VEC4 cell;                                                                                \
    VKMD_UVEC4 sizes;                                                                              \
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
_Static_assert(sizeof(vkmd_nl_state) == 64, "state is 64 bytes");
_Static_assert(offsetof(vkmd_nl_push, grid) == 16, "push.grid at 16");
_Static_assert(offsetof(vkmd_nl_push, cell) == 32, "push.cell at 32");
_Static_assert(offsetof(vkmd_nl_push, sizes) == 48, "push.sizes at 48");
_Static_assert(offsetof(vkmd_nl_push, groups_a) == 64, "push.groups_a at 64");
_Static_assert(offsetof(vkmd_nl_push, groups_b) == 80, "push.groups_b at 80");
_Static_assert(sizeof(vkmd_nl_push) == 96, "nl push constants are 96 bytes");
_Static_assert(VKMD_NL_DISPATCH_COUNT <= 8, "group counts fit groups_a and groups_b");
_Static_assert(VKMD_NL_CLUSTER_SIZE <= VKMD_NL_MASK_BITS, "one mask bit per cluster lane");
_Static_assert(VKMD_NL_MAX_SLOTS == (1u << (32 - VKMD_NL_MASK_BITS)), "slot bits + mask bits");
#endif

#endif
