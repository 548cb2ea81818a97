// Every bonded term (bonds, angles, proper and improper dihedrals, CHARMM's
// Urey-Bradley terms, harmonic impropers and CMAP) and every
// fixed pair (scaled 1-4 LJ + Coulomb, Ewald excluded-pair corrections) in one
// dispatch: the global id ranges over one term array, bonds first, then
// angles, dihedrals, 1-4 pairs and excluded pairs (layout in
// common/vkmd_layout.h). Grid-stride loop, so any number of terms fits the
// device's workgroup-count limit.
//
// Mirrors engine/ref/ref_bonded.c, ref_pairs14.c and ref_nonbonded_excluded
// line by line in float: minimum image with
// floor(d / L + 0.5); angles from atan2(|a x b|, a . b) and forces from cross
// products (no 1/sin); dihedrals with the IUPAC sign and the Bekker force
// split. Functional forms come from common/forms.glsl; atan2 from
// common/vkmd_math.glsl (the built-in may be 4096 ulp off, see there).
//
// Determinism: forces are added with 64-bit atomics in fixed point (2^32 per
// kcal/mol/A). Integer addition is associative, so the sum is the same for any
// thread order. Energies too: each term's energy is converted to fixed point,
// summed per workgroup by a shared-memory tree (exact integer sums) and added
// once per workgroup and slot with a 64-bit atomic. A float reduction would
// round differently for each order; this one cannot. The 64-bit values and
// atomics are int64 or, in the "+words" build, pairs of 32-bit words with the
// same bits (common/fixed_point.glsl).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/forms.glsl"
#include "common/vkmd_math.glsl"
#include "common/positions.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_BONDED_WORKGROUP_SIZE;
// false: forces only (steps that read no energies); the energy sums and
// their reduction are compiled out.
layout(constant_id = VKMD_SPEC_ENERGY) const bool ENERGY = true;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_BONDED_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_BONDED_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_BONDED_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_BONDED_BINDING_TERMS) readonly buffer Terms { vkmd_bonded_term terms[]; };
layout(std430, binding = VKMD_BONDED_BINDING_POSITIONS_X) readonly buffer PositionsX { uvec4 pos_x[]; };
layout(push_constant) uniform Push { VKMD_BONDED_PUSH_FIELDS } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)

// The eleven slots this pass owns, VKMD_ENERGY_BOND .. VKMD_ENERGY_COUL_EXCL,
// VKMD_ENERGY_RESTRAINT and VKMD_ENERGY_UREY_BRADLEY .. VKMD_ENERGY_CMAP
// (bonded_slot in common/bonded_terms.glsl).
const uint SLOTS = 11;
shared vkmd_fixed red[SLOTS][WORKGROUP_SIZE];

VKMD_FIXED_DEFINE_ATOMIC_ADD(force_add, force)
VKMD_FIXED_DEFINE_ATOMIC_ADD(energy_add, energy)

#define BD_BOX       (pc.box)
#define BD_BOX_T     (pc.box_t.xyz)
#define BD_ATOMS     (pc.atom_count)
#define BD_ALPHA     (pc.ewald_alpha)
#define BD_ALPHA_LO  (pc.ewald_alpha_lo)
#define BD_BONDS     (pc.bond_count)
#define BD_ANGLES    (pc.angle_count)
#define BD_DIHEDRALS (pc.dihedral_count)
#define BD_PAIRS14   (pc.pair14_count)
#define BD_EXCL      (pc.excl_count)
#define BD_CMAPS     (pc.cmap_count)
#define BD_RESTRAINTS (pc.restraint_count)
#define BD_RESTRAINT_FB (pc.restraint_fb)
#include "common/bonded_terms.glsl"

void main()
{
    vkmd_fixed e[SLOTS];
    for (uint s = 0; s < SLOTS; ++s)
        e[s] = VKMD_FIXED_ZERO;
    bonded_terms(gl_GlobalInvocationID.x, gl_NumWorkGroups.x * WORKGROUP_SIZE, e);
    if (!ENERGY)
        return;

    uint lid = gl_LocalInvocationID.x;
    for (uint s = 0; s < SLOTS; ++s)
        red[s][lid] = e[s];
    barrier();
    for (uint half_size = WORKGROUP_SIZE / 2; half_size > 0; half_size /= 2) {
        if (lid < half_size)
            for (uint s = 0; s < SLOTS; ++s)
                red[s][lid] = fixed_add(red[s][lid], red[s][lid + half_size]);
        barrier();
    }
    if (lid == 0)
        for (uint s = 0; s < SLOTS; ++s)
            if (!fixed_is_zero(red[s][0]))
                energy_add(bonded_slot(s), red[s][0]);
}
