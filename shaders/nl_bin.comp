// Neighbour-list rebuild, step 1 of 5 (engine/forces/pass_neighbor.c): every atom
// goes into the cell of its wrapped position; atomicAdd on the cell count
// gives its rank in the cell. That rank depends on thread scheduling, so
// nl_sort.comp (CELLS) later orders each cell by atom index: the final
// order, and with it the list, is deterministic. The positions of this
// build are saved for later displacement checks.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"

void main()
{
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint a = gl_GlobalInvocationID.x; a < NL_ATOMS; a += stride) {
        vec4 p = pos[a];
        uint key = nl_cell_key(nl_cell_of(nl_wrap(p.xyz)));
        atom_key[a] = key;
        atom_key[NL_ATOMS + a] = atomicAdd(cells[key], 1u);
        saved[a] = p;
    }
}
