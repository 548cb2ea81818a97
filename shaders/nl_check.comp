// Neighbour-list check (engine/forces/pass_neighbor.c), one dispatch per force
// evaluation:
//
// The largest squared displacement of any atom since the last build and
// since the last prune (minimum image, so an atom wrapped by the integrator
// is not a jump), reduced per workgroup in shared memory and then with one
// atomicMax each on the float bits (non-negative floats order like their
// bits). The last workgroup to finish (counted with an atomic in the state)
// decides, and writes the indirect dispatch arguments of every rebuild
// kernel and of the prune: their group counts when due, zero otherwise.
//   rebuild: forced, the box changed, or an atom moved more than the outer
//            list allows since the build (the outer list then no longer
//            holds every pair that can come within the inner radius);
//   prune:   after every rebuild, or when an atom moved more than half the
//            inner skin since the last prune (the inner list then no longer
//            holds every pair that can come within the cutoff).
// A recorded MD loop therefore never asks the host.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"
#include "common/positions.glsl"
#define NLP pc
#include "common/nl_atom.glsl"

void main()
{
    vec2 m = vec2(0.0);
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint a = gl_GlobalInvocationID.x; a < NL_ATOMS; a += stride) {
        vec2 d = nl_disp2(a, pos[a].xyz);
        m = vec2(nl_nan_max(m.x, d.x), nl_nan_max(m.y, d.y));
    }
    nl_check_reduce(m, true, 1u); // a rebuild is recorded after every check
}
