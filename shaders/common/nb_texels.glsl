// The pair tiles' per-atom reads (common/nonbonded_tiles.glsl and the prune
// in front of them) through texel views, for the pair kernels
// (nonbonded.comp, forces.comp) on CPU devices: there a storage-buffer load
// that differs by lane is a loop over the lanes, an image load one gather
// (vk/pipeline.h). The includer declares the storage buffers order, rel and
// params and the constant TEXEL_READS (VKMD_SPEC_TEXEL_READS), and defines
// NB_TEXELS_ORDER, NB_TEXELS_REL and NB_TEXELS_PARAMS, the bindings of
// their views (uint texels for ORDER, uvec4 for the others); with
// TEXEL_READS false the storage buffers are read, and the views may be a
// placeholder.
#ifndef VKMD_NB_TEXELS_GLSL
#define VKMD_NB_TEXELS_GLSL

layout(binding = NB_TEXELS_ORDER, r32ui) uniform readonly uimageBuffer order_t;
layout(binding = NB_TEXELS_REL, rgba32ui) uniform readonly uimageBuffer rel_t;
layout(binding = NB_TEXELS_PARAMS, rgba32ui) uniform readonly uimageBuffer params_t;

uint order_at(uint s)
{
    if (TEXEL_READS)
        return imageLoad(order_t, int(s)).x;
    return order[s];
}

vec4 rel_at(uint s)
{
    if (TEXEL_READS)
        return uintBitsToFloat(imageLoad(rel_t, int(s)));
    return rel[s];
}

vec4 params_at(uint a)
{
    if (TEXEL_READS)
        return uintBitsToFloat(imageLoad(params_t, int(a)));
    return params[a];
}

#define NB_ORDER(s)  order_at(s)
#define NB_REL(s)    rel_at(s)
#define NB_PARAMS(a) params_at(a)
#define NLP_REL(s)   rel_at(s)

#endif
