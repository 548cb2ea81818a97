/* Layouts of the viewer's graphics pipelines (shaders/view_*.vert|frag;
 * viewer/render.c), shared by C and GLSL in common/vkmd_layout.h's style.
 *
 * Every viewer pipeline has one descriptor set (vertex and fragment stages)
 * with the bindings below and one push-constant block. Positions, velocities
 * and forces are the simulation's own buffers (vertex pulling, no copy); the
 * rest belongs to the viewer. The frame record is written each frame with
 * vkCmdUpdateBuffer. */
#ifndef VKMD_LAYOUT_VIEWER_H
#define VKMD_LAYOUT_VIEWER_H

#define VKMD_VIEW_BINDING_POSITIONS 0 /* vec4 [N] xyz A (the simulation's) */
#define VKMD_VIEW_BINDING_ATOMS                                                                    \
    1                                  /* uvec4 [N]: x rgba8 colour, y vdW radius bits, z          \
                                          ball radius bits, w flags | replica << 8 */
#define VKMD_VIEW_BINDING_FRAME      2 /* vkmd_view_frame */
#define VKMD_VIEW_BINDING_VELOCITIES 3 /* vec4 [N] xyz A/fs, w 1/m (the simulation's) */
#define VKMD_VIEW_BINDING_FORCES     4 /* int64 fixed point [3N] planes, read as uint pairs */
#define VKMD_VIEW_BINDING_PAIRS      5 /* uint [2 P]: bonds, then water O-H pairs */
#define VKMD_VIEW_BINDING_TEXT       6 /* uvec4 [C]: x, y pixel, glyph code, rgba8 colour */
#define VKMD_VIEW_BINDING_FONT       7 /* uint [2 * 96]: 5x7 glyph bits of ASCII 32..127 */
#define VKMD_VIEW_BINDING_OUTLINE                                                                  \
    8 /* vec4 [2 E]: a triclinic cell's outline, edge end points relative to the cell's centre     \
         at the system's box, A (viewer/cell_outline.h) */
#define VKMD_VIEW_BINDING_COUNT 9

/* atoms[i].w flags */
#define VKMD_VIEW_ATOM_WATER 1u
#define VKMD_VIEW_ATOM_VSITE                                                                       \
    2u /* a virtual site (extra point): hidden by VKMD_VIEW_VSITES_HIDDEN */

/* Push-constant kind: what a draw call draws. */
#define VKMD_VIEW_DRAW_ATOMS 0 /* 6 vertices per atom: sphere impostor */
#define VKMD_VIEW_DRAW_BONDS 1 /* 6 vertices per pair: cylinder impostor */
#define VKMD_VIEW_DRAW_WATER 2 /* 2 vertices per water pair: lines */
#define VKMD_VIEW_DRAW_BOX   3 /* 24 vertices: the periodic box's 12 edges (2 E: an outline) */
#define VKMD_VIEW_DRAW_TEXT  4 /* 6 vertices per character */

/* frame.mode.x: colour mode */
#define VKMD_VIEW_COLOR_ELEMENT  0
#define VKMD_VIEW_COLOR_VELOCITY 1 /* local temperature m v^2 / 3 k_B against the bath */
#define VKMD_VIEW_COLOR_FORCE    2 /* |F| on a log scale */
#define VKMD_VIEW_COLOR_REPLICA  3
#define VKMD_VIEW_COLOR_COUNT    4
/* frame.mode.y: representation; frame.mode.z: water */
#define VKMD_VIEW_REP_BALL_STICK 0
#define VKMD_VIEW_REP_VDW        1
#define VKMD_VIEW_WATER_SHOWN    0
#define VKMD_VIEW_WATER_THIN     1 /* lines */
#define VKMD_VIEW_WATER_HIDDEN   2
#define VKMD_VIEW_WATER_MASK     3u /* frame.mode.z bits of the water mode */
#define VKMD_VIEW_VSITES_HIDDEN  4u /* frame.mode.z bit: virtual sites not drawn (key v) */

#define VKMD_VIEW_BOND_RADIUS 0.15 /* A, ball-and-stick cylinders */

/* frame.cell[0].w: the kind of box. A triclinic cell's atoms are drawn
 * wrapped into its outline, atom by atom (bonds cut by it are hidden, as any
 * bond longer than 4 A), whether or not the outline is shown. */
#define VKMD_VIEW_BOX_RECT     0 /* box.xyz edges: the 12 edges of the brick at 0 */
#define VKMD_VIEW_BOX_WIGNER   2 /* cell rows: the outline is its Wigner-Seitz cell */
#define VKMD_VIEW_BOX_PARALLEL 3 /* cell rows: the outline is the parallelepiped of a, b, c */

struct vkmd_view_frame {
    VKMD_VEC4 view[4];  /* world -> view (columns), A */
    VKMD_VEC4 proj[4];  /* view -> clip (columns), Vulkan depth 0..1, y down */
    VKMD_VEC4 box;      /* xyz edges A (triclinic: x the scale of the outline, the current box
                           over the system's); w 1 to draw the box */
    VKMD_VEC4 viewport; /* width, height pixels, 1/width, 1/height */
    VKMD_VEC4 scale;    /* x bath temperature K, y text pixel scale, z replica grid spacing A
                           (0: replicas drawn where they are), w 1 if velocities.w is the
                           mass (UFF) rather than 1/m */
    VKMD_UVEC4 mode;    /* x colour, y representation, z water, w atom count */
    VKMD_UVEC4 counts;  /* x bond pairs, y water pairs, z replica grid columns, w rows */
    VKMD_VEC4 cell[3];  /* triclinic: rows a, b, c of the current cell, A; cell[0].w
                           VKMD_VIEW_BOX_* */
};

#define VKMD_VIEW_PUSH_FIELDS                                                                      \
    VKMD_UINT kind; /* VKMD_VIEW_DRAW_* */                                                         \
    VKMD_UINT first;                                                                               \
    VKMD_UINT pad0;                                                                                \
    VKMD_UINT pad1;

#ifdef __STDC__
typedef struct vkmd_view_frame vkmd_view_frame;
typedef struct vkmd_view_push {
    VKMD_VIEW_PUSH_FIELDS
} vkmd_view_push;
_Static_assert(sizeof(vkmd_view_frame) == 256, "view frame record is 256 bytes (std430)");
_Static_assert(offsetof(vkmd_view_frame, cell) == 208, "frame.cell at 208");
_Static_assert(offsetof(vkmd_view_frame, proj) == 64, "frame.proj at 64");
_Static_assert(offsetof(vkmd_view_frame, box) == 128, "frame.box at 128");
_Static_assert(offsetof(vkmd_view_frame, mode) == 176, "frame.mode at 176");
_Static_assert(offsetof(vkmd_view_frame, counts) == 192, "frame.counts at 192");
_Static_assert(sizeof(vkmd_view_push) == 16, "view push constants are 16 bytes");
#endif

#endif
