#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/view_common.glsl"

layout(location = 0) in vec2 v_ts;
layout(location = 1) in vec3 v_axis_point;
layout(location = 2) flat in vec3 v_side;
layout(location = 3) flat in vec3 v_front;
layout(location = 4) flat in vec3 v_color_a;
layout(location = 5) flat in vec3 v_color_b;
layout(location = 0) out vec4 out_color;

void main()
{
    float t = clamp(v_ts.x, -1.0, 1.0);
    vec3 n = t * v_side + sqrt(max(1.0 - t * t, 0.0)) * v_front;
    vec3 p = v_axis_point + n * float(VKMD_VIEW_BOND_RADIUS);
    vec4 clip = proj_matrix() * vec4(p, 1.0);
    gl_FragDepth = clip.z / clip.w;
    out_color = vec4(shade(v_ts.y < 0.5 ? v_color_a : v_color_b, n), 1.0);
}
