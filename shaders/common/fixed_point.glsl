// 64-bit fixed-point sums (forces, energies, the PME charge grid) for every
// pass, in two builds of the same source:
//
// - default: int64_t values added with 64-bit atomics (needs shaderInt64 and
//   shaderBufferInt64Atomics: lavapipe and every recent desktop GPU);
// - VKMD_FIXED_WORDS defined (the "+words" build variant, cmake/shaders.cmake
//   and shaders/variants.cmake): no 64-bit type anywhere. A value is a uvec2
//   (lo, hi) holding the same two's-complement int64, and a buffer element
//   is the same 8 bytes (std430 uvec2 = little-endian int64), so the host,
//   the tests and the other passes read the buffers unchanged.
//
// Both builds give the same bits: the conversions below reproduce int64_t(x)
// (truncation toward zero) and float(int64_t) (round to nearest even)
// exactly, and additions are exact modulo 2^64 in both, in any order.
//
// Why a build variant and not a specialization constant: SPIR-V declares
// capabilities (Int64, Int64Atomics) for the whole module, and Vulkan checks
// them against the enabled features when the module is created, before any
// specialization; a module with an int64 atomic behind a false constant is
// still invalid on a device without the feature. The host picks the module
// (engine/forces/fixed_point.h).
//
// The words atomic add, an exact 64-bit add out of two 32-bit atomics:
//     old = atomicAdd(lo_word, x_lo);
//     c = (old + x_lo overflowed 32 bits) ? 1 : 0;
//     atomicAdd(hi_word, x_hi + c);
// Proof that the final pair is the exact sum modulo 2^64 for any
// interleaving of any number of such adds (value V = hi 2^32 + lo): the
// atomics on lo_word happen in some total order; the k-th one sees
// old_k = lo_{k-1} and leaves lo_k = old_k + x_lo,k - 2^32 c_k, with c_k
// computed from the value it actually added to, so as integers
//     lo_final = lo_0 + sum_k x_lo,k - 2^32 sum_k c_k.
// The adds to hi_word commute (modulo 2^32):
//     hi_final = hi_0 + sum_k (x_hi,k + c_k) mod 2^32.
// Hence hi_final 2^32 + lo_final = V_0 + sum_k (x_hi,k 2^32 + x_lo,k) mod 2^64:
// the carries cancel whatever the order. Only the pair read after the pass
// (after its barrier) is meaningful; a read during the pass can see a torn
// value, which nothing does. Zero words are not added (adding 0 changes
// nothing and carries nothing), which saves the hi atomic for every small
// positive value and, with its carry, for most small negative ones.
#ifndef VKMD_FIXED_POINT_GLSL
#define VKMD_FIXED_POINT_GLSL

#include "common/vkmd_layout.h"

#ifdef VKMD_FIXED_WORDS

#define vkmd_fixed      uvec2
#define VKMD_FIXED_ZERO uvec2(0u)

// -a modulo 2^64.
uvec2 fixed_neg(uvec2 a)
{
    uint lo = ~a.x + 1u;
    return uvec2(lo, ~a.y + (lo == 0u ? 1u : 0u));
}

// a + b modulo 2^64.
uvec2 fixed_add(uvec2 a, uvec2 b)
{
    uint carry;
    uint lo = uaddCarry(a.x, b.x, carry);
    return uvec2(lo, a.y + b.y + carry);
}

bool fixed_is_zero(uvec2 a)
{
    return (a.x | a.y) == 0u;
}

// int64_t(x): x truncated toward zero, for |x| < 2^63 (as the cast, finite
// values outside that range and NaN have no defined result). Exact: below
// 2^32 the uint conversion truncates; above it x is an integer (its ulp is
// at least 2^9), h = floor(|x| / 2^32) is exact (power-of-two scaling), and
// |x| - h 2^32 is exact by Sterbenz (h 2^32 <= |x| < 2 h 2^32).
uvec2 fixed_trunc(float x)
{
    float a = abs(x);
    uvec2 r;
    if (a < 4294967296.0) {
        r = uvec2(uint(a), 0u);
    } else {
        float h = floor(a * 2.3283064365386963e-10);
        r = uvec2(uint(a - h * 4294967296.0), uint(h));
    }
    return x < 0.0 ? fixed_neg(r) : r;
}

// float(int64_t(a)) rounded to nearest even, as the int64 conversion. Above
// 2^32 the magnitude is shifted right by the t bits of its high word into
// 32 bits, the shifted-out bits ORed into the lowest kept bit (a sticky bit:
// float keeps 24 of the 32, so that bit only breaks exact ties, as it
// should), and that one uint -> float conversion rounds once.
float fixed_to_float(uvec2 a)
{
    bool neg = int(a.y) < 0;
    uvec2 m = neg ? fixed_neg(a) : a; // INT64_MIN stays 2^63, read unsigned
    float r;
    if (m.y == 0u) {
        r = float(m.x);
    } else {
        int t = findMSB(m.y) + 1; // bits in the high word, 1..32
        uint q, sticky;
        if (t == 32) {
            q = m.y;
            sticky = m.x;
        } else {
            q = (m.y << (32 - t)) | (m.x >> t);
            sticky = m.x & ((1u << t) - 1u);
        }
        r = ldexp(float(q | (sticky != 0u ? 1u : 0u)), t);
    }
    return neg ? -r : r;
}

// Defines void NAME(uint index, uvec2 value): ARRAY[index] += value with two
// 32-bit atomics (proof above). ARRAY is a uvec2 array in a storage buffer.
#define VKMD_FIXED_DEFINE_ATOMIC_ADD(NAME, ARRAY)                                                  \
    void NAME(uint index, uvec2 value)                                                             \
    {                                                                                              \
        uint carry = 0u;                                                                           \
        if (value.x != 0u) {                                                                       \
            uint old = atomicAdd(ARRAY[index].x, value.x);                                         \
            carry = old + value.x < old ? 1u : 0u;                                                 \
        }                                                                                          \
        uint hi = value.y + carry;                                                                 \
        if (hi != 0u)                                                                              \
            atomicAdd(ARRAY[index].y, hi);                                                         \
    }

#else // int64

#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require

#define vkmd_fixed      int64_t
#define VKMD_FIXED_ZERO 0l

int64_t fixed_neg(int64_t a)
{
    return -a;
}

int64_t fixed_add(int64_t a, int64_t b)
{
    return a + b;
}

bool fixed_is_zero(int64_t a)
{
    return a == 0l;
}

int64_t fixed_trunc(float x)
{
    return int64_t(x);
}

float fixed_to_float(int64_t a)
{
    return float(a);
}

#define VKMD_FIXED_DEFINE_ATOMIC_ADD(NAME, ARRAY)                                                  \
    void NAME(uint index, int64_t value)                                                           \
    {                                                                                              \
        atomicAdd(ARRAY[index], value);                                                            \
    }

#endif

// Forces and energies at VKMD_FIXED_SCALE (2^32 per kcal/mol/A or kcal/mol);
// v * 2^32 is exact, so this is trunc(v 2^32) in both builds.
vkmd_fixed to_fixed(float v)
{
    return fixed_trunc(v * float(VKMD_FIXED_SCALE));
}

#endif
