/* Layout of the virtual-site pass (shaders/vsite.comp,
 * engine/forces/pass_vsite.h), shared by C and GLSL; include after
 * common/vkmd_layout.h. Spec ids 72..75.
 *
 * One thread per site. BUILD writes each site's position from its parents
 * (positions.glsl, every positions mode); SPREAD reads each site's
 * fixed-point force, adds the parents' shares with atomics and zeroes the
 * site's row. Kinds and weights as system/vsite.h. */
#ifndef VKMD_LAYOUT_VSITE_H
#define VKMD_LAYOUT_VSITE_H

/* ---- Specialization constants (ids 72..75 are this module's) ------------ */
#define VKMD_SPEC_VSITE_MODE 72 /* VKMD_VSITE_MODE_* */

#define VKMD_VSITE_MODE_BUILD  0
#define VKMD_VSITE_MODE_SPREAD 1

#define VKMD_VSITE_KIND_AVERAGE3     0 /* = VKMD_VSITE_AVERAGE3 (system/vsite.h) */
#define VKMD_VSITE_KIND_OUT_OF_PLANE 1 /* = VKMD_VSITE_OUT_OF_PLANE */

#define VKMD_VSITE_WORKGROUP_SIZE 64

/* ---- Bindings ------------------------------------------------------------ */
#define VKMD_VSITE_BINDING_POSITIONS   0 /* vec4 [atom_count], xyz A (sites written) */
#define VKMD_VSITE_BINDING_POSITIONS_X 1 /* uvec4 [2 * atom_count]: split parts */
#define VKMD_VSITE_BINDING_FORCES      2 /* int64 [3 * atom_count] planes x | y | z */
#define VKMD_VSITE_BINDING_RECORDS     3 /* vkmd_vsite_record [vsite_count] */
#define VKMD_VSITE_BINDING_COUNT       4

/* atoms: (site, parent 0, parent 1, parent 2); info: (kind, -, -, -);
 * w: AVERAGE3 (w0, w1, w2, 0), OUT_OF_PLANE (w12, w13, wcross 1/A, 0). */
#define VKMD_VSITE_RECORD_FIELDS                                                                   \
    VKMD_UVEC4 atoms;                                                                              \
    VKMD_UVEC4 info;                                                                               \
    VKMD_VEC4 w;

#define VKMD_VSITE_PUSH_FIELDS                                                                     \
    VKMD_UINT vsite_count;                                                                         \
    VKMD_UINT atom_count;                                                                          \
    VKMD_UINT pad0;                                                                                \
    VKMD_UINT pad1;

struct vkmd_vsite_record {
    VKMD_VSITE_RECORD_FIELDS
};

#ifdef __STDC__
typedef struct vkmd_vsite_record vkmd_vsite_record;
typedef struct vkmd_vsite_push {
    VKMD_VSITE_PUSH_FIELDS
} vkmd_vsite_push;
_Static_assert(sizeof(vkmd_vsite_record) == 48, "std430 vkmd_vsite_record is 48 bytes");
_Static_assert(offsetof(vkmd_vsite_record, info) == 16, "vsite.info at 16");
_Static_assert(offsetof(vkmd_vsite_record, w) == 32, "vsite.w at 32");
_Static_assert(sizeof(vkmd_vsite_push) == 16, "vsite push constants are 16 bytes");
_Static_assert(offsetof(vkmd_vsite_push, atom_count) == 4, "vsite push.atom_count at 4");
#endif

#endif
