#version 450
#extension GL_GOOGLE_include_directive : require
/* Atoms as ray-cast sphere impostors: 6 vertices (two triangles) per
 * instance = atom, a camera-facing square in front of the sphere that covers
 * its projection; view_atoms.frag intersects the view ray with the sphere.
 * Positions are pulled from the simulation's buffer (no vertex input). */
#include "common/view_common.glsl"

layout(location = 0) out vec3 v_pos;
layout(location = 1) flat out vec3 v_center;
layout(location = 2) flat out float v_radius;
layout(location = 3) flat out vec3 v_color;

void main()
{
    const vec2 corners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1),
                                   vec2(-1, 1));
    uint i = uint(gl_InstanceIndex);
    v_color = atom_color(i);
    v_radius = atom_radius(i);
    v_center = (view_matrix() * vec4(atom_pos(i), 1.0)).xyz;
    if (!atom_visible(i)) {
        v_pos = vec3(0.0);
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0); /* outside the clip volume */
        return;
    }
    /* The square sits on the sphere's near side, 1.5 r wide each way: its
     * projection covers the sphere's silhouette for any sphere not at the
     * near plane itself. */
    vec3 p = v_center + vec3(corners[gl_VertexIndex] * (1.5 * v_radius), v_radius);
    v_pos = p;
    gl_Position = proj_matrix() * vec4(p, 1.0);
}
