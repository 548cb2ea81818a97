// Philox4x32-10 counter-based random numbers and the thermostat's Gaussians:
// the device copy of engine/core/philox.{h,c}. The integer block gives the
// host's bits exactly; the Gaussians are float versions of the host's double
// Box-Muller (philox.h):
//   u = (x + 0.5) 2^-32,  g0 = sqrt(-2 ln u0) cos(2 pi u1),
//   g1 = sqrt(-2 ln u0) sin(2 pi u1),  g2 = sqrt(-2 ln u2) cos(2 pi u3).
//
// Surprises (why the float code does not read like the formula):
// - ln u for u near 1: float(x) rounds x to 24 bits, so 1 - u would be known
//   only to ~3e-8 absolutely, and sqrt(-2 ln u) ~ sqrt(2 (1 - u)) amplifies that
//   to ~1e-4 when 1 - u ~ 1e-7. For u > 1 - 2^-5 we form w = 1 - u exactly
//   from ~x (= 2^32 - 1 - x, so w = (~x + 0.5) 2^-32) and sum the series
//   -ln(1 - w) = w + w^2/2 + ... + w^6/6 (truncation below 1e-10 relative).
// - cos/sin: Vulkan guarantees only 2^-11 absolute error, and only inside
//   [-pi, pi]. The angle is taken as 2 pi t with t = u - 1/2 in (-1/2, 1/2),
//   formed exactly from the signed word x - 2^31, and
//   cos(2 pi u) = -cos(2 pi t), sin(2 pi u) = -sin(2 pi t).
// Measured against the double host version in tests/test_gpu_philox.c.
#ifndef VKMD_PHILOX_GLSL
#define VKMD_PHILOX_GLSL

// One Philox4x32-10 block (Salmon, Moraes, Dror, Shaw, SC 2011; Random123's
// constants): out = philox(ctr, key).
uvec4 philox4x32_10(uvec4 ctr, uvec2 key)
{
    for (int round = 0; round < 10; ++round) {
        uint hi0, lo0, hi1, lo1;
        umulExtended(0xD2511F53u, ctr.x, hi0, lo0);
        umulExtended(0xCD9E8D57u, ctr.z, hi1, lo1);
        ctr = uvec4(hi1 ^ ctr.y ^ key.x, lo1, hi0 ^ ctr.w ^ key.y, lo0);
        key += uvec2(0x9E3779B9u, 0xBB67AE85u);
    }
    return ctr;
}

// sqrt(-2 ln u) for u = (x + 0.5) 2^-32.
float philox_bm_radius(uint x)
{
    const float inv32 = 1.0 / 4294967296.0;
    float nl; // -ln u
    if (x >= 0xF8000000u) { // u > 1 - 2^-5
        const float w = (float(~x) + 0.5) * inv32;
        nl = w * (1.0 + w * (0.5 + w * (1.0 / 3.0 + w * (0.25 + w * (0.2 + w * (1.0 / 6.0))))));
    } else {
        nl = -log((float(x) + 0.5) * inv32);
    }
    return sqrt(2.0 * nl);
}

// (cos, sin) of 2 pi u for u = (x + 0.5) 2^-32, through t = u - 1/2.
vec2 philox_bm_cos_sin(uint x)
{
    const float t = (float(int(x ^ 0x80000000u)) + 0.5) * (1.0 / 4294967296.0);
    const float a = 6.283185307179586 * t; // (-pi, pi)
    return vec2(-cos(a), -sin(a));
}

// The three Gaussians of one block's words x (see the top of this file).
vec3 philox_box_muller3(uvec4 x)
{
    const float r0 = philox_bm_radius(x.x);
    const vec2 cs = philox_bm_cos_sin(x.y);
    const float r2 = philox_bm_radius(x.z);
    return vec3(r0 * cs.x, r0 * cs.y, r2 * philox_bm_cos_sin(x.w).x);
}

// Three standard normal deviates for (seed, step, atom, stream), keyed as
// vkmd_philox_gauss3: key = (seed lo, seed hi), counter = (atom, step lo,
// step hi, stream).
vec3 philox_gauss3(uvec2 key, uint step_lo, uint step_hi, uint atom, uint stream)
{
    return philox_box_muller3(philox4x32_10(uvec4(atom, step_lo, step_hi, stream), key));
}

#endif
