#version 450
#extension GL_GOOGLE_include_directive : require
/* HUD text: 6 vertices per instance = character cell (6x9 glyph pixels
 * times frame.scale.y screen pixels) at a pixel position. */
#include "common/view_common.glsl"

layout(std430, set = 0, binding = VKMD_VIEW_BINDING_TEXT) readonly buffer Text {
    uvec4 text[];
};
layout(location = 0) out vec2 v_cell; /* glyph pixels, 0..6 x 0..9 */
layout(location = 1) flat out uint v_code;
layout(location = 2) flat out vec3 v_color;

void main()
{
    const vec2 corners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1),
                                   vec2(0, 1));
    uvec4 ch = text[gl_InstanceIndex];
    vec2 c = corners[gl_VertexIndex];
    v_cell = c * vec2(6.0, 9.0);
    v_code = ch.z;
    v_color = unpackUnorm4x8(ch.w).rgb;
    vec2 px = vec2(ch.xy) + v_cell * frame.scale.y;
    gl_Position = vec4(px * 2.0 * frame.viewport.zw - 1.0, 0.0, 1.0);
}
