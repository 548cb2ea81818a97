#version 450
#extension GL_GOOGLE_include_directive : require
/* Lines: water O-H pairs in the thinned water mode (2 vertices per pair,
 * starting at pair pc.first), or the periodic box's 12 edges (24 vertices),
 * or a triclinic cell's outline (2 vertices per edge, common/view_common.glsl). */
#include "common/view_common.glsl"

layout(location = 0) out vec3 v_color;

void main()
{
    vec3 p;
    if (pc.kind == VKMD_VIEW_DRAW_BOX && frame.cell[0].w >= float(VKMD_VIEW_BOX_WIGNER)) {
        p = cell_centre() + frame.box.x * outline[gl_VertexIndex].xyz;
        v_color = vec3(1.0, 0.85, 0.1);
    } else if (pc.kind == VKMD_VIEW_DRAW_BOX) {
        /* Edge e runs along axis e / 4 from one of 4 corners of that face pair. */
        uint e = uint(gl_VertexIndex) / 2u, end = uint(gl_VertexIndex) % 2u;
        uint axis = e / 4u, corner = e % 4u;
        uint a1 = (axis + 1u) % 3u, a2 = (axis + 2u) % 3u;
        vec3 f = vec3(0.0);
        f[axis] = float(end);
        f[a1] = float(corner & 1u);
        f[a2] = float(corner >> 1u);
        p = f * frame.box.xyz;
        v_color = vec3(1.0, 0.85, 0.1);
    } else {
        uint atom = pairs[2u * pc.first + uint(gl_VertexIndex)];
        p = atom_pos(atom);
        v_color = atom_color(atom);
    }
    gl_Position = proj_matrix() * view_matrix() * vec4(p, 1.0);
}
