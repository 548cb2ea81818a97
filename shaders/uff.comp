// UFF for many replicas in one dispatch: every term (bond, angle, torsion,
// inversion, van der Waals + Coulomb pair) of every replica. The global id
// runs over items (one term of one replica) grouped in ranges, one per
// (term kind, molecule); inside a range neighbouring ids are the same term
// of different replicas (layout in common/layout_uff.h), so a warp/wave
// shares parameters and branches. Grid-stride loop: any item count fits the
// device's workgroup-count limit.
//
// Mirrors engine/ref/ref_uff_bonded.c and ref_uff_nonbonded.c in float: the
// same cosines and the same Cartesian gradients of the cosine (no 1/sin), no
// periodic box. Forms from common/uff_forms.glsl, which work from the
// minimum-relative quantities (see there); for that every angular term also
// computes the sine from unit vectors (|a x b|), which the reference has no
// need of.
//
// Determinism: forces and energies are int64 fixed point (2^32 per kcal/mol/A
// or kcal/mol) added with int64 atomics, so the sums are the same bits for
// any thread order. Each item adds its energy to its replica's slot directly:
// neighbouring threads belong to different replicas, so these atomics do not
// collide the way one slot per workgroup would. The int64 values and
// atomics are 32-bit word pairs with the same bits in the "+words" build
// (common/fixed_point.glsl), for devices without them.
//
// Debug: with DEBUG_REPLICA != VKMD_UFF_DEBUG_NONE (specialization constant),
// the items of that replica also write their geometry, energy and force
// pieces to the debug buffer; otherwise the compiler removes those writes.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/uff_forms.glsl"
#include "common/vkmd_math.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_UFF_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_UFF_DEBUG_REPLICA) const uint DEBUG_REPLICA = VKMD_UFF_DEBUG_NONE;
layout(constant_id = VKMD_SPEC_UFF_PER_REPLICA) const bool PER_REPLICA = false;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_UFF_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_UFF_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_UFF_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_UFF_BINDING_TERMS) readonly buffer Terms { vkmd_uff_term terms[]; };
layout(std430, binding = VKMD_UFF_BINDING_RANGES) readonly buffer Ranges { vkmd_uff_range ranges[]; };
layout(std430, binding = VKMD_UFF_BINDING_SLOTS) readonly buffer Slots { uvec4 slots[]; };
layout(std430, binding = VKMD_UFF_BINDING_DEBUG) writeonly buffer Debug { vkmd_uff_debug_record dbg[]; };
layout(push_constant) uniform Push { VKMD_UFF_PUSH_FIELDS } pc;

VKMD_FIXED_DEFINE_ATOMIC_ADD(force_add, force)
VKMD_FIXED_DEFINE_ATOMIC_ADD(energy_add, energy)

// The item being evaluated: its replica's first atom and energy row, and
// whether its details go to the debug buffer (record index dbg_index).
uint atom_base;
uint energy_base;
bool debugging;
uint dbg_index;

vec3 atom_pos(uint a)
{
    return pos[atom_base + a].xyz;
}

void add_force(uint a, vec3 f)
{
    uint n = pc.atom_count;
    uint atom = atom_base + a;
    if (PER_REPLICA) { // this invocation owns the replica's atoms
        for (uint c = 0u; c < 3u; ++c) {
            uint i = VKMD_FORCE_INDEX(c, atom, n);
            force[i] = fixed_add(force[i], to_fixed(f[c]));
        }
        return;
    }
    force_add(VKMD_FORCE_INDEX(0, atom, n), to_fixed(f.x));
    force_add(VKMD_FORCE_INDEX(1, atom, n), to_fixed(f.y));
    force_add(VKMD_FORCE_INDEX(2, atom, n), to_fixed(f.z));
}

void add_energy(uint slot, float e)
{
    vkmd_fixed q = to_fixed(e);
    if (fixed_is_zero(q))
        return;
    if (PER_REPLICA)
        energy[energy_base + slot] = fixed_add(energy[energy_base + slot], q);
    else
        energy_add(energy_base + slot, q);
}

void debug_write(vkmd_uff_term t, uint kind, uint index, vec4 geom, vec4 en, vec3 f0, vec3 f1,
                 vec3 f2, vec3 f3)
{
    if (DEBUG_REPLICA == VKMD_UFF_DEBUG_NONE || !debugging)
        return;
    vkmd_uff_debug_record r;
    r.atoms = t.atoms;
    r.info = uvec4(kind, index, 1u, uint(t.aux.w));
    r.geom = geom;
    r.energy = en;
    r.force[0] = vec4(f0, 0.0);
    r.force[1] = vec4(f1, 0.0);
    r.force[2] = vec4(f2, 0.0);
    r.force[3] = vec4(f3, 0.0);
    dbg[dbg_index] = r;
}

#include "common/uff_terms.glsl"

// The range holding item `id` (ranges are sorted by item_start; the first
// starts at 0).
uint find_range(uint id)
{
    uint lo = 0, hi = pc.range_count - 1;
    while (lo < hi) {
        uint mid = (lo + hi + 1) / 2;
        if (ranges[mid].a.x <= id)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

// PER_REPLICA: replica slots r, r + stride, ...: every term of the slot's
// molecule in kind order (the table after the ranges, layout_uff.h).
void replicas(uint stride)
{
    for (uint r = gl_GlobalInvocationID.x; r < pc.replica_count; r += stride) {
        uvec4 slot = slots[r];
        atom_base = slot.y;
        energy_base = slot.x * VKMD_UFF_ENERGY_STRIDE;
        debugging = DEBUG_REPLICA != VKMD_UFF_DEBUG_NONE && slot.x == DEBUG_REPLICA;
        vkmd_uff_range mt = ranges[pc.range_count + slot.w];
        uint start[VKMD_UFF_KIND_COUNT + 1] =
            uint[VKMD_UFF_KIND_COUNT + 1](mt.a.x, mt.a.y, mt.a.z, mt.a.w, mt.b.x, mt.b.y);
        for (uint k = 0u; k < VKMD_UFF_KIND_COUNT; ++k)
            for (uint term = start[k]; term < start[k + 1u]; ++term) {
                dbg_index = term - start[0];
                term_of_kind(k, term, term - start[k]);
            }
    }
}

void main()
{
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    if (PER_REPLICA) {
        replicas(stride);
        return;
    }
    for (uint id = gl_GlobalInvocationID.x; id < pc.item_count; id += stride) {
        vkmd_uff_range rg = ranges[find_range(id)];
        uint local_id = id - rg.a.x;
        uint n = rg.a.w;
        uint term = rg.a.y + local_id / n;
        uvec4 slot = slots[rg.a.z + local_id % n];
        atom_base = slot.y;
        energy_base = slot.x * VKMD_UFF_ENERGY_STRIDE;
        debugging = DEBUG_REPLICA != VKMD_UFF_DEBUG_NONE && slot.x == DEBUG_REPLICA;
        dbg_index = term - rg.b.y;
        term_of_kind(rg.b.x, term, term - rg.a.y); // index within its kind
    }
}
