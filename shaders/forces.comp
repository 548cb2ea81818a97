// The fused force evaluation of an MD step of a periodic system with PME
// (engine/sim/step.c, common/layout_step.h): one dispatch with three roles,
// by workgroup,
// interleaved (workgroup w has role w % 3) so that a driver handing out
// contiguous ranges of workgroups gives every thread a share of each:
//   PAIRS   the pair tiles of the neighbour list (common/nonbonded_tiles.glsl);
//           when the list's check asked for a prune, each group first prunes
//           its cluster's outer tiles (common/nl_prune.glsl), then computes
//           the inner tiles;
//   BONDED  every bonded term and fixed pair (common/bonded_terms.glsl);
//   GRID    the charge grid converted to the FFT grid, and cleared for the
//           next spread (step.comp spreads).
// The same code as nonbonded.comp, nl_prune.comp, bonded.comp and
// pme_grid_convert.comp: the same bits for the same list.
#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef VKMD_TILE_SHARED_WORDS
#define VKMD_TILE_SHARED
#define VKMD_FIXED_WORDS
#endif
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/forms.glsl"
#include "common/vkmd_math.glsl"
#include "common/positions.glsl"
#include "common/group_order.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_NB_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_ENERGY) const bool ENERGY = true;
layout(constant_id = VKMD_SPEC_NB_LJ_TABLE) const bool LJ_TABLE = false;
layout(constant_id = VKMD_SPEC_NB_TILE_SPLIT) const uint TILE_SPLIT = 1u;
layout(constant_id = VKMD_SPEC_TEXEL_READS) const bool TEXEL_READS = false;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

#include "common/tile.glsl"

struct vkmd_nb_params {
    VKMD_NB_PUSH_FIELDS
};
struct vkmd_bonded_params {
    VKMD_BONDED_PUSH_FIELDS
};
struct vkmd_nl_params {
    VKMD_NL_PUSH_FIELDS
};

layout(std430, binding = VKMD_FORCES_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_FORCES_BINDING_POSITIONS_X) readonly buffer PositionsX { uvec4 pos_x[]; };
layout(std430, binding = VKMD_FORCES_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_FORCES_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_FORCES_BINDING_NB_PARAMS) readonly buffer Params { vec4 params[]; };
layout(std430, binding = VKMD_FORCES_BINDING_LJ) readonly buffer LJ { float lj[]; };
layout(std430, binding = VKMD_FORCES_BINDING_ORDER) readonly buffer Order { uint order[]; };
layout(std430, binding = VKMD_FORCES_BINDING_REL) readonly buffer Rel { vec4 rel[]; };
layout(std430, binding = VKMD_FORCES_BINDING_OUTER) readonly buffer Outer { uvec4 outer[]; };
// coherent: with split tiles a group reads inner tiles that other groups of
// its workgroup wrote in this dispatch (pairs_split)
layout(std430, binding = VKMD_FORCES_BINDING_INNER) coherent buffer Inner { uvec4 inner[]; };
layout(std430, binding = VKMD_FORCES_BINDING_MASKS) coherent buffer Masks { uvec2 masks[]; };
layout(std430, binding = VKMD_FORCES_BINDING_COUNTS) buffer Counts { uvec4 counts[]; };
layout(std430, binding = VKMD_FORCES_BINDING_NL_STATE) buffer State { VKMD_NL_STATE_FIELDS } st;
layout(std430, binding = VKMD_FORCES_BINDING_NL_SAVED) buffer Saved { vec4 saved[]; };
layout(std430, binding = VKMD_FORCES_BINDING_TERMS) readonly buffer Terms { vkmd_bonded_term terms[]; };
layout(std430, binding = VKMD_FORCES_BINDING_QGRID) buffer ChargeGrid { vkmd_fixed qgrid[]; };
layout(std430, binding = VKMD_FORCES_BINDING_GRID) writeonly buffer FftGrid { float grid[]; };
struct vkmd_forces_params {
    VKMD_FORCES_PARAM_FIELDS
    vkmd_nb_params nb;
    vkmd_bonded_params bd;
    vkmd_nl_params nl;
};
layout(std430, binding = VKMD_FORCES_BINDING_PARAMS) readonly buffer FParams { vkmd_forces_params p; } params_buf;
// The pair tiles' per-atom reads through texel views on CPU devices.
#define NB_TEXELS_ORDER  VKMD_FORCES_BINDING_ORDER_TEXELS
#define NB_TEXELS_REL    VKMD_FORCES_BINDING_REL_TEXELS
#define NB_TEXELS_PARAMS VKMD_FORCES_BINDING_NB_PARAMS_TEXELS
#include "common/nb_texels.glsl"
// The parameters, copied once per invocation: read from the buffer inside
// the loops, every use would be a load (lavapipe does not hoist them).
vkmd_forces_params prm;

VKMD_POS_LOAD(load_pos, pos, pos_x)

const uint C = VKMD_NL_CLUSTER_SIZE;

VKMD_FIXED_DEFINE_ATOMIC_ADD(force_add, force)
VKMD_FIXED_DEFINE_ATOMIC_ADD(energy_add, energy)

#define NB_ATOMS     (prm.nb.sizes.x)
#define NB_SLOTS     (prm.nb.sizes.y)
#define NB_INNER     (prm.nb.sizes.w)
#define NB_MASK_BASE (prm.nb.extra.x)
#define NB_TYPES     (prm.nb.extra.y)
#define NB_CUTOFF2   (prm.nb.params.x)
#define NB_ALPHA     (prm.nb.params.y)
#define NB_BOX       (prm.nb.box.xyz)
#define NB_BOX_LO    (prm.nb.box_lo.xyz)
#define NB_BOX_INV   (prm.nb.box_inv.xyz)
#include "common/nonbonded_tiles.glsl"

#define BD_BOX       (prm.bd.box)
#define BD_BOX_T     (prm.bd.box_t.xyz)
#define BD_ATOMS     (prm.bd.atom_count)
#define BD_ALPHA     (prm.bd.ewald_alpha)
#define BD_ALPHA_LO  (prm.bd.ewald_alpha_lo)
#define BD_BONDS     (prm.bd.bond_count)
#define BD_ANGLES    (prm.bd.angle_count)
#define BD_DIHEDRALS (prm.bd.dihedral_count)
#define BD_PAIRS14   (prm.bd.pair14_count)
#define BD_EXCL      (prm.bd.excl_count)
#define BD_CMAPS     (prm.bd.cmap_count)
#define BD_RESTRAINTS (prm.bd.restraint_count)
#define BD_RESTRAINT_FB (prm.bd.restraint_fb)
#include "common/bonded_terms.glsl"

#define PME_BOX  (prm.nb.box.xyz)
#define PME_SHEAR vec3(0.0) // the fused step takes rectangular boxes only
#define PME_GRID (prm.pme_grid)
#define PME_ATOM_CONVERT
#include "common/pme_atom.glsl"

#define NLP_BOX          (prm.nl.box.xyz)
#define NLP_BOX_LO       (prm.nl.box_lo.xyz)
#define NLP_R_INNER      (prm.nl.box_lo.w)
#define NLP_SLOTS        (prm.nl.sizes.y)
#define NLP_CLUSTERS     (prm.nl.sizes.z)
#define NLP_OUTER_STRIDE (prm.nl.sizes.w)
#define NLP_INNER_STRIDE (prm.nl.limits.x)
#define NLP_ATOMS        (prm.nl.sizes.x)
#include "common/pair_prune.glsl"

shared vkmd_fixed red[BD_SLOTS][WORKGROUP_SIZE];

void bonded(uint role_wg)
{
    vkmd_fixed e[BD_SLOTS];
    for (uint s = 0; s < BD_SLOTS; ++s)
        e[s] = VKMD_FIXED_ZERO;
    bonded_terms(role_wg * WORKGROUP_SIZE + gl_LocalInvocationID.x, prm.roles.x * WORKGROUP_SIZE,
                 e);
    if (!ENERGY)
        return;
    uint lid = gl_LocalInvocationID.x;
    for (uint s = 0; s < BD_SLOTS; ++s)
        red[s][lid] = e[s];
    barrier();
    for (uint half_size = WORKGROUP_SIZE / 2; half_size > 0; half_size /= 2) {
        if (lid < half_size)
            for (uint s = 0; s < BD_SLOTS; ++s)
                red[s][lid] = fixed_add(red[s][lid], red[s][lid + half_size]);
        barrier();
    }
    if (lid == 0)
        for (uint s = 0; s < BD_SLOTS; ++s)
            if (!fixed_is_zero(red[s][0]))
                energy_add(bonded_slot(s), red[s][0]);
}

void main()
{
    prm = params_buf.p;
    uint role = gl_WorkGroupID.x % VKMD_FORCES_ROLES, role_wg = gl_WorkGroupID.x / VKMD_FORCES_ROLES;
    if (role == VKMD_FORCES_ROLE_PAIRS) {
        pair_tiles(role_wg, prm.roles.x);
    } else if (role == VKMD_FORCES_ROLE_BONDED) {
        bonded(vkmd_group_block(role_wg, prm.roles.x, prm.roles.y));
    } else {
        uint total = prm.pme_grid.x * prm.pme_grid.y * 2u * prm.pme_grid.w;
        uint stride = prm.roles.x * WORKGROUP_SIZE;
        for (uint p = role_wg * WORKGROUP_SIZE + gl_LocalInvocationID.x; p < total; p += stride)
            grid[p] = pme_convert_point(p, true);
    }
}
