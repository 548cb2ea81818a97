#version 450
#extension GL_GOOGLE_include_directive : require
/* Bonds as cylinder impostors: 6 vertices per instance = pair (bonds, then
 * water O-H pairs when waters are shown), a quad along the bond facing the
 * camera; view_bonds.frag shades it as a cylinder and writes its depth.
 * Each half takes its atom's colour. */
#include "common/view_common.glsl"

layout(location = 0) out vec2 v_ts; /* x across -1..1, y along 0..1 */
layout(location = 1) out vec3 v_axis_point;
layout(location = 2) flat out vec3 v_side;
layout(location = 3) flat out vec3 v_front;
layout(location = 4) flat out vec3 v_color_a;
layout(location = 5) flat out vec3 v_color_b;

void main()
{
    const vec2 corners[6] = vec2[](vec2(-1, 0), vec2(1, 0), vec2(1, 1), vec2(-1, 0), vec2(1, 1),
                                   vec2(-1, 1));
    uint k = pc.first + uint(gl_InstanceIndex);
    uint a = pairs[2u * k], b = pairs[2u * k + 1u];
    v_color_a = atom_color(a);
    v_color_b = atom_color(b);
    mat4 view = view_matrix();
    vec3 pa = (view * vec4(atom_pos(a), 1.0)).xyz;
    vec3 pb = (view * vec4(atom_pos(b), 1.0)).xyz;
    vec3 axis = pb - pa;
    float len = length(axis);
    float r = float(VKMD_VIEW_BOND_RADIUS);
    /* Hidden: water not shown, vdW spheres (no sticks), or a pair broken
     * across the box (molecules are whole, so only a corrupt frame). */
    bool hidden = !atom_visible(a) || !atom_visible(b) || frame.mode.y == VKMD_VIEW_REP_VDW ||
                  len < 1e-4 || len > 4.0;
    vec3 mid = 0.5 * (pa + pb);
    vec3 side = cross(axis, -mid);
    if (hidden || dot(side, side) < 1e-12) {
        v_ts = vec2(0.0);
        v_axis_point = vec3(0.0);
        v_side = v_front = vec3(0.0);
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    side = normalize(side);
    vec3 u = axis / len;
    vec3 front = normalize(-mid - dot(-mid, u) * u); /* towards the eye, across the axis */
    vec2 c = corners[gl_VertexIndex];
    v_axis_point = mix(pa, pb, c.y);
    v_side = side;
    v_front = front;
    v_ts = c;
    vec3 p = v_axis_point + side * (c.x * r) + front * r;
    gl_Position = proj_matrix() * vec4(p, 1.0);
}
