// Neighbour-list check (engine/forces/pass_neighbor.c), one dispatch per force
// evaluation:
//
// The largest squared displacement of any atom since the last build and
// since the last prune (minimum image, so an atom wrapped by the integrator
// is not a jump), and in a gated MD batch the largest look-ahead
// displacement (common/nl_atom.glsl: nl_measure), reduced per workgroup in
// shared memory and then with one atomicMax each on the float bits
// (non-negative floats order like their bits). The last workgroup to finish
// (counted with an atomic in the state) decides, and writes the indirect
// dispatch arguments of every rebuild kernel and of the prune: their group
// counts when due, zero otherwise.
//   rebuild: forced, the box changed, or an atom moved more than the outer
//            list allows since the build (the outer list then no longer
//            holds every pair that can come within the inner radius);
//   prune:   after every rebuild, or when an atom moved more than half the
//            inner skin since the last prune (the inner list then no longer
//            holds every pair that can come within the cutoff);
//   halt:    (gated batches) an atom may pass the rebuild trigger by the
//            next check: the batch stops after this step.
// A recorded MD loop therefore never asks the host.
//
// MODE CHECK_DISPLACEMENT: by atom; the rebuild dispatches and the gather
// follow. MODE CHECK_GATHER (steps that record no rebuild): by slot, and the
// gather's work too (each slot's position relative to its cluster's anchor,
// nl_gather.comp), in one pass over the positions.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"
#include "common/positions.glsl"
#define NLP pc
#include "common/nl_atom.glsl"

layout(constant_id = VKMD_SPEC_NL_MODE) const uint MODE = VKMD_NL_MODE_CHECK_DISPLACEMENT;

VKMD_POS_LOAD(load_pos, pos, pos_x)

const uint C = VKMD_NL_CLUSTER_SIZE;

void main()
{
    vec3 m = vec3(0.0);
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    if (MODE == VKMD_NL_MODE_CHECK_GATHER) {
        uint used = (st.slot_count + C - 1u) / C * C;
        for (uint s = gl_GlobalInvocationID.x; s < used; s += stride) {
            uint a = order[s];
            if (a == VKMD_NL_EMPTY) {
                rel[NL_SLOTS + s] = vec4(vec3(VKMD_NL_FAR), 0.0);
                continue;
            }
            vkmd_pos x = load_pos(a);
            m = nl_nan_max3(m, nl_measure(a, pos_float(x)));
            rel[NL_SLOTS + s] = vec4(nl_relative(s, x), 1.0);
        }
        nl_check_reduce(m, false);
        return;
    }
    for (uint a = gl_GlobalInvocationID.x; a < NL_ATOMS; a += stride)
        m = nl_nan_max3(m, nl_measure(a, pos[a].xyz));
    nl_check_reduce(m, true);
}
