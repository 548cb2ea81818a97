// MD positions in three representations (VKMD_POSITIONS_*, layouts in
// common/vkmd_layout.h), chosen by the POSITIONS specialization constant;
// every shader that forms a displacement or moves an atom goes through this
// file, so a reader never sees which one is in use.
//
//   FP32         one float per coordinate.
//   SPLIT_FLOAT  a coarse float c on a fixed grid of VKMD_POSITIONS_QUANTUM
//                (1/8 A) and a fine float f, x = c + f. A move by d adds
//                into the fine part, t = f + d, whose rounding error TwoSum
//                captures; the whole quanta of t are then rebased into c
//                (exact: both are multiples of the quantum), the error is
//                added back to the remainder, and f keeps |f| <= 1/16 A, so the
//                fine part has a 2^-28 A (4e-9 A) resolution wherever the atom
//                is, up to |x| < 2^21 A.
//   SPLIT_INT    (hi, lo): x = hi + lo 2^-32 A, a 64-bit fixed point split in
//                two 32-bit words; moves add with carry (exact).
//
// Displacements (pos_sub) are formed from the parts: for SPLIT_FLOAT
// (c_j - c_i) + (f_j - f_i), where the coarse difference is exact (grid
// multiples) and the fine one nearly so; for SPLIT_INT the integer
// difference, exact, converted to float once at the end. A 1 A displacement
// therefore keeps ~7 significant digits however far the atoms are from the
// origin, where FP32's x_j - x_i loses everything below the ulp of x. Both
// split modes do the same arithmetic on the same fine parts wherever the
// coarse parts are, so a system translated by a multiple of the coarse unit
// (1/8 A, 1 A) follows the same trajectory to the last bit.
//
// Every writer also stores the position rounded to float into the float
// buffer (pos.xyz) for approximate readers.
//
// Every floating-point operation of this file is `precise` (SPIR-V
// NoContraction; tests/test_spirv_precise checks it): the split arithmetic
// is exact only in the order written, and a compiler may otherwise
// reassociate (c_j - c_i) + (f_j - f_i) into (c_j + f_j) - (c_i + f_i), which
// is fp32's arithmetic again, or contract a product into an fma.
//
// Buffers are passed by name through the VKMD_POS_* macros (GLSL has no
// buffer references): they define loaders and storers over a float buffer
// (vec4 [N]) and an extra buffer (uvec4 [2N]).
#ifndef VKMD_POSITIONS_GLSL
#define VKMD_POSITIONS_GLSL

#include "common/two_sum.glsl"

layout(constant_id = VKMD_SPEC_POSITIONS) const uint POSITIONS = VKMD_POSITIONS_FP32;

struct vkmd_pos {
    vec3 c;   // FP32: the position; SPLIT_FLOAT: coarse part (quantum grid)
    vec3 f;   // SPLIT_FLOAT: fine part
    ivec3 hi; // SPLIT_INT: whole A
    uvec3 lo; // SPLIT_INT: 2^-32 A units
};

// (hi, lo) += a signed 32-bit count of 2^-32 A units, exactly (carry).
void pos_int_add_lo(inout ivec3 hi, inout uvec3 lo, ivec3 l)
{
    uvec3 carry;
    lo = uaddCarry(lo, uvec3(l), carry);
    hi += ivec3(carry) - ivec3(lessThan(l, ivec3(0))); // sign extension of l
}

// (hi, lo) += d A, exactly but for the bits of d below 2^-32 A (truncated
// toward zero, deterministically). d = whole A + half A + a remainder below
// half an A, each piece exact in float and in its integer form (a small
// negative d's fraction takes all 32 bits of lo, more than a float holds,
// so it is never formed as a float).
void pos_int_add(inout ivec3 hi, inout uvec3 lo, vec3 d)
{
    vec3 whole = trunc(d);
    precise vec3 r = d - whole;                  // exact, |r| < 1
    precise vec3 half_ = trunc(r * 2.0) * 0.5;   // -1/2, 0 or 1/2
    precise vec3 rest = r - half_;               // exact, |rest| < 1/2
    precise vec3 units = rest * float(VKMD_POSITIONS_INT_SCALE);
    // +1/2 A = 1 A - 2^31 units; -1/2 A = -2^31 units
    hi += ivec3(whole) + ivec3(greaterThan(half_, vec3(0.0)));
    pos_int_add_lo(hi, lo, ivec3(notEqual(half_, vec3(0.0))) * int(0x80000000u));
    pos_int_add_lo(hi, lo, ivec3(units));
}

// (hi, lo) with lo as a signed fraction in [-1/2, 1/2) A, converted to float.
vec3 pos_int_to_float(ivec3 hi, uvec3 lo)
{
    ivec3 los = ivec3(lo); // lo >= 2^31 reads as lo - 2^32 ...
    hi += ivec3(lessThan(los, ivec3(0))); // ... so carry one whole A in
    precise vec3 x = vec3(hi) + vec3(los) * float(VKMD_POSITIONS_INT_INV);
    return x;
}

vkmd_pos pos_zero()
{
    vkmd_pos p;
    p.c = vec3(0.0);
    p.f = vec3(0.0);
    p.hi = ivec3(0);
    p.lo = uvec3(0u);
    return p;
}

// The position rounded to float (what the float buffer holds).
vec3 pos_float(vkmd_pos p)
{
    if (POSITIONS == VKMD_POSITIONS_SPLIT_FLOAT) {
        precise vec3 x = p.c + p.f;
        return x;
    }
    if (POSITIONS == VKMD_POSITIONS_SPLIT_INT)
        return pos_int_to_float(p.hi, p.lo);
    return p.c;
}

// The position as a coarse float that is exact and a small fine float
// (0 for FP32), for readers that need more than a float but no
// displacement (the PME grid coordinates).
void pos_pair(vkmd_pos p, out vec3 coarse, out vec3 fine)
{
    if (POSITIONS == VKMD_POSITIONS_SPLIT_INT) {
        coarse = vec3(p.hi); // exact below 2^24 A
        precise vec3 f = vec3(p.lo) * float(VKMD_POSITIONS_INT_INV);
        fine = f;
    } else {
        coarse = p.c;
        fine = p.f; // 0 for FP32
    }
}

// q - p, the displacement from p to q.
vec3 pos_sub(vkmd_pos q, vkmd_pos p)
{
    if (POSITIONS == VKMD_POSITIONS_SPLIT_FLOAT) {
        precise vec3 d = (q.c - p.c) + (q.f - p.f);
        return d;
    }
    if (POSITIONS == VKMD_POSITIONS_SPLIT_INT) {
        uvec3 borrow;
        uvec3 lo = usubBorrow(q.lo, p.lo, borrow);
        return pos_int_to_float(q.hi - p.hi - ivec3(borrow), lo);
    }
    precise vec3 d = q.c - p.c;
    return d;
}

// q - p - lo for a small float lo (the rest of a lattice translation whose
// grid part p already holds, common/box.glsl): both steps round at the scale
// of the result.
vec3 pos_sub_lo(vkmd_pos q, vkmd_pos p, vec3 lo)
{
    precise vec3 d = pos_sub(q, p) - lo;
    return d;
}

// p moved by d (A).
vkmd_pos pos_add(vkmd_pos p, vec3 d)
{
    if (POSITIONS == VKMD_POSITIONS_SPLIT_FLOAT) {
        // t + e = f + d exactly; the whole quanta of t go to the coarse part
        // (t - k Q and c + k Q are exact), then e is added back to the small
        // remainder, where it rounds at 2^-24 of 1/16 A at most.
        vec3 t, e;
        vkmd_two_sum(p.f, d, t, e);
        precise vec3 k = floor(t * float(VKMD_POSITIONS_QUANTA) + 0.5);
        precise vec3 kq = k * float(VKMD_POSITIONS_QUANTUM);
        precise vec3 c = p.c + kq;
        precise vec3 r = t - kq;
        precise vec3 f = r + e;
        p.c = c;
        p.f = f;
    } else if (POSITIONS == VKMD_POSITIONS_SPLIT_INT) {
        pos_int_add(p.hi, p.lo, d);
    } else {
        precise vec3 c = p.c + d;
        p.c = c;
    }
    return p;
}

// vkmd_pos NAME(uint a, vec3 x): the position whose float buffer value x
// the caller has already read, completed from the extra buffer XBUF.
#define VKMD_POS_LOAD_EXTRA(NAME, XBUF)                                                            \
    vkmd_pos NAME(uint a, vec3 x)                                                                  \
    {                                                                                              \
        vkmd_pos p = pos_zero();                                                                   \
        if (POSITIONS == VKMD_POSITIONS_SPLIT_FLOAT) {                                             \
            p.c = uintBitsToFloat(XBUF[2u * a].xyz);                                               \
            p.f = uintBitsToFloat(XBUF[2u * a + 1u].xyz);                                          \
        } else if (POSITIONS == VKMD_POSITIONS_SPLIT_INT) {                                        \
            p.hi = ivec3(XBUF[2u * a].xyz);                                                        \
            p.lo = XBUF[2u * a + 1u].xyz;                                                          \
        } else {                                                                                   \
            p.c = x;                                                                               \
        }                                                                                          \
        return p;                                                                                  \
    }

// vkmd_pos NAME(uint a) over the float buffer CBUF (vec4) and the extra
// buffer XBUF (uvec4); the split modes read only XBUF.
#define VKMD_POS_LOAD(NAME, CBUF, XBUF)                                                            \
    VKMD_POS_LOAD_EXTRA(NAME##_extra, XBUF)                                                        \
    vkmd_pos NAME(uint a)                                                                          \
    {                                                                                              \
        return NAME##_extra(a, POSITIONS == VKMD_POSITIONS_FP32 ? CBUF[a].xyz : vec3(0.0));        \
    }

// void NAME(uint a, vkmd_pos p): writes the float (xyz of CBUF[a], w kept)
// and the extra parts.
#define VKMD_POS_STORE(NAME, CBUF, XBUF)                                                           \
    void NAME(uint a, vkmd_pos p)                                                                  \
    {                                                                                              \
        CBUF[a].xyz = pos_float(p);                                                                \
        if (POSITIONS == VKMD_POSITIONS_SPLIT_FLOAT) {                                             \
            XBUF[2u * a].xyz = floatBitsToUint(p.c);                                               \
            XBUF[2u * a + 1u].xyz = floatBitsToUint(p.f);                                          \
        } else if (POSITIONS == VKMD_POSITIONS_SPLIT_INT) {                                        \
            XBUF[2u * a].xyz = uvec3(p.hi);                                                        \
            XBUF[2u * a + 1u].xyz = p.lo;                                                          \
        }                                                                                          \
    }

#endif
