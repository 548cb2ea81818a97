#version 450
#extension GL_GOOGLE_include_directive : require
/* A 5x7 glyph in a 6x9 cell on a translucent dark background (blended). */
#include "common/view_common.glsl"

layout(std430, set = 0, binding = VKMD_VIEW_BINDING_FONT) readonly buffer Font {
    uint font[];
};
layout(location = 0) in vec2 v_cell;
layout(location = 1) flat in uint v_code;
layout(location = 2) flat in vec3 v_color;
layout(location = 0) out vec4 out_color;

void main()
{
    int x = int(floor(v_cell.x)) - 1, y = int(floor(v_cell.y)) - 1;
    bool on = false;
    if (x >= 0 && x < 5 && y >= 0 && y < 7 && v_code >= 32u && v_code < 128u) {
        uint bit = uint(y * 5 + x);
        uint word = font[2u * (v_code - 32u) + bit / 32u];
        on = ((word >> (bit % 32u)) & 1u) != 0u;
    }
    out_color = on ? vec4(v_color, 1.0) : vec4(0.0, 0.0, 0.0, 0.55);
}
