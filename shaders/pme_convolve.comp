// PME step 3 (between VkFFT's forward R2C and inverse C2R): multiplies the
// half spectrum S(m) in place by the Ewald kernel
//   eterm(m) = k exp(-pi^2 m^2 / alpha^2) / (pi V m^2 |b(m)|^2)
// and sums the reciprocal energy E = 1/2 sum_m eterm(m) |S(m)|^2, exactly as
// ref_pme.c: m = 0 is dropped (set to 0), every kz other than 0 and K2/2 (K2
// even) stands for itself and its conjugate and counts twice. One thread per
// complex value, grid-stride loop.
//
// Determinism of the energy: each value's energy is converted to 64-bit fixed
// point (VKMD_FIXED_SCALE), summed per thread, then per workgroup by a
// shared-memory tree, then added with one 64-bit atomic per workgroup into
// VKMD_ENERGY_COUL_RECIP. Integer addition is associative, so the total does
// not depend on the order in which threads or workgroups run; a float sum (or
// float atomics) would round differently for each schedule. The 64-bit values
// and atomics are int64 or, in the "+words" build, pairs of 32-bit words with
// the same bits (common/fixed_point.glsl).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/box.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_PME_WORKGROUP_SIZE;
// false: the convolution only (steps that read no energies).
layout(constant_id = VKMD_SPEC_ENERGY) const bool ENERGY = true;
// true: write the kernel eterm(m) as complex values (K0 eterm, 0) in the
// spectrum's layout, which VkFFT's fused convolution multiplies the
// spectrum by (engine/forces/pme_fft.h: its inverse divides by K0); no
// convolution, no energy.
layout(constant_id = VKMD_SPEC_PME_KERNEL) const bool KERNEL = false;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_PME_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_PME_BINDING_FFT_GRID) buffer FftGrid { vec2 spectrum[]; };
layout(std430, binding = VKMD_PME_BINDING_MODULI) readonly buffer Moduli { float inv_moduli[]; };
layout(std430, binding = VKMD_PME_BINDING_KERNEL) writeonly buffer Kernel { vec2 kernel_out[]; };
layout(push_constant) uniform Push { VKMD_PME_PUSH_FIELDS } pc;

shared vkmd_fixed red[WORKGROUP_SIZE];

VKMD_FIXED_DEFINE_ATOMIC_ADD(energy_add, energy)

// Signed frequency of index i on an axis of k points, as ref_pme.c.
float frequency(uint i, uint k)
{
    return float(i < (k + 1) / 2 ? int(i) : int(i) - int(k));
}

// A triclinic cell's kernel exp(-pi^2 m^2 / alpha^2) / m^2 at
// m = fx (ax a*) / ax + fy (by b*) / by + fz c* / cz (layout_pme.h).
float tri_kernel(float fx, float fy, float fz)
{
    vec3 s = uintBitsToFloat(uvec3(pc.shear0, pc.shear1, pc.shear2));
    float mx = fx / pc.box.x, my = fy / pc.box.y, mz = fz / pc.box.z;
    vec3 m = vec3(mx, mx * s.x + my, mx * s.y + my * s.z + mz);
    float m2 = dot(m, m);
    return exp(-pc.ewald.x * m2) / m2;
}

void main()
{
    uint k0 = pc.grid.x, k1 = pc.grid.y, k2 = pc.grid.z, kc = pc.grid.w;
    uint total = k0 * k1 * kc;
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    vkmd_fixed e = VKMD_FIXED_ZERO;
    for (uint c = gl_GlobalInvocationID.x; c < total; c += stride) {
        if (c == 0) { // m = 0: no term (no neutralising background)
            if (KERNEL)
                kernel_out[0] = vec2(0.0);
            else
                spectrum[0] = vec2(0.0);
            continue;
        }
        uint z = c % kc, xy = c / kc;
        uint y = xy % k1, x = xy / k1;
        float mx = frequency(x, k0) / pc.box.x;
        float my = frequency(y, k1) / pc.box.y;
        float mz = frequency(z, k2) / pc.box.z;
        float m2 = mx * mx + my * my + mz * mz;
        float eterm = pc.ewald.y * exp(-pc.ewald.x * m2) / m2 * inv_moduli[x] *
                      inv_moduli[k0 + y] * inv_moduli[k0 + k1 + z];
        if (TRICLINIC) {
            // The kernel averaged with the mirrored index's (k - x, k - y,
            // k - z), as ref_pme.c: equal except on a Nyquist plane of an
            // even grid, whose index stands for -k/2 in both entries.
            float kernel =
                0.5 * (tri_kernel(frequency(x, k0), frequency(y, k1), frequency(z, k2)) +
                       tri_kernel(frequency((k0 - x) % k0, k0), frequency((k1 - y) % k1, k1),
                                  frequency((k2 - z) % k2, k2)));
            eterm = pc.ewald.y * kernel * inv_moduli[x] * inv_moduli[k0 + y] *
                    inv_moduli[k0 + k1 + z];
        }
        if (KERNEL) {
            kernel_out[c] = vec2(eterm * float(k0), 0.0);
            continue;
        }
        vec2 s = spectrum[c];
        bool twice = z != 0 && !(k2 % 2 == 0 && z == k2 / 2);
        if (ENERGY)
            e = fixed_add(e, to_fixed((twice ? 1.0 : 0.5) * eterm * dot(s, s)));
        spectrum[c] = s * eterm;
    }

    if (!ENERGY || KERNEL)
        return;
    uint lid = gl_LocalInvocationID.x;
    red[lid] = e;
    barrier();
    for (uint half_size = WORKGROUP_SIZE / 2; half_size > 0; half_size /= 2) {
        if (lid < half_size)
            red[lid] = fixed_add(red[lid], red[lid + half_size]);
        barrier();
    }
    if (lid == 0 && !fixed_is_zero(red[0]))
        energy_add(VKMD_ENERGY_COUL_RECIP, red[0]);
}
