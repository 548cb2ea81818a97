#version 450
#extension GL_GOOGLE_include_directive : require
/* Sphere impostor: the exact ray-sphere intersection, its normal for the
 * lighting and its depth (so spheres intersect each other correctly). */
#include "common/view_common.glsl"

layout(location = 0) in vec3 v_pos;
layout(location = 1) flat in vec3 v_center;
layout(location = 2) flat in float v_radius;
layout(location = 3) flat in vec3 v_color;
layout(location = 0) out vec4 out_color;

void main()
{
    vec3 d = normalize(v_pos); /* the view ray from the eye at the origin */
    float b = dot(d, v_center);
    float c = dot(v_center, v_center) - v_radius * v_radius;
    float disc = b * b - c;
    if (disc < 0.0)
        discard;
    float t = b - sqrt(disc);
    vec3 p = t * d;
    vec3 n = (p - v_center) / v_radius;
    vec4 clip = proj_matrix() * vec4(p, 1.0);
    gl_FragDepth = clip.z / clip.w;
    out_color = vec4(shade(v_color, n), 1.0);
}
