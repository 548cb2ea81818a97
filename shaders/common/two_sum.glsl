// Knuth's TwoSum, the one error-free addition of every shader: s + e == a + b
// exactly, for floats of any magnitudes, in IEEE float with round to nearest
// (which Vulkan requires of add and sub). Users: common/positions.glsl
// (split-float moves), common/uff_forms.glsl (float pairs of the UFF terms),
// uff_fire.comp (position + correction pairs of the UFF minimiser).
//
// Surprise: every operation is `precise` (SPIR-V NoContraction). Without it
// the compiler may contract or reassociate (s - a) and (a - (s - bb)), which
// is algebraically 0 and would lose e. It also forbids fma(), which Vulkan
// lets round twice.
#ifndef VKMD_TWO_SUM_GLSL
#define VKMD_TWO_SUM_GLSL

void vkmd_two_sum(float a, float b, out float s, out float e)
{
    precise float s_ = a + b;
    precise float bb = s_ - a;
    precise float e_ = (a - (s_ - bb)) + (b - bb);
    s = s_;
    e = e_;
}

// Per component.
void vkmd_two_sum(vec3 a, vec3 b, out vec3 s, out vec3 e)
{
    for (int c = 0; c < 3; ++c)
        vkmd_two_sum(a[c], b[c], s[c], e[c]);
}

#endif
