/* Shared by the viewer's shaders (shaders/view_*.vert|frag): bindings, the
 * frame record and the per-atom colour of each colour mode. */
#include "common/vkmd_layout.h"

layout(std430, set = 0, binding = VKMD_VIEW_BINDING_POSITIONS) readonly buffer Positions {
    vec4 positions[];
};
layout(std430, set = 0, binding = VKMD_VIEW_BINDING_ATOMS) readonly buffer Atoms {
    uvec4 atoms[];
};
layout(std430, set = 0, binding = VKMD_VIEW_BINDING_FRAME) readonly buffer Frame {
    vkmd_view_frame frame;
};
layout(std430, set = 0, binding = VKMD_VIEW_BINDING_VELOCITIES) readonly buffer Velocities {
    vec4 velocities[];
};
layout(std430, set = 0, binding = VKMD_VIEW_BINDING_FORCES) readonly buffer Forces {
    uint force_words[];
};
layout(std430, set = 0, binding = VKMD_VIEW_BINDING_PAIRS) readonly buffer Pairs {
    uint pairs[];
};
layout(std430, set = 0, binding = VKMD_VIEW_BINDING_OUTLINE) readonly buffer Outline {
    vec4 outline[];
};

layout(push_constant) uniform Push {
    VKMD_VIEW_PUSH_FIELDS
} pc;

mat4 view_matrix()
{
    return mat4(frame.view[0], frame.view[1], frame.view[2], frame.view[3]);
}

mat4 proj_matrix()
{
    return mat4(frame.proj[0], frame.proj[1], frame.proj[2], frame.proj[3]);
}

/* Heat scale: blue, cyan, green, yellow, red as t goes 0 -> 1. */
vec3 heat(float t)
{
    t = clamp(t, 0.0, 1.0) * 4.0;
    const vec3 c[5] = vec3[](vec3(0.15, 0.25, 1.0), vec3(0.1, 0.85, 0.95), vec3(0.2, 0.9, 0.2),
                             vec3(1.0, 0.9, 0.1), vec3(1.0, 0.15, 0.1));
    int k = min(int(t), 3);
    return mix(c[k], c[k + 1], t - float(k));
}

/* One int64 fixed-point force component (low word, high word) in kcal/mol/A. */
float force_component(uint axis, uint atom)
{
    uint k = 2u * (axis * frame.mode.w + atom);
    return float(int(force_words[k + 1u])) + float(force_words[k]) * VKMD_FIXED_INV_SCALE;
}

/* The centre (a + b + c) / 2 of a triclinic cell's drawing. */
vec3 cell_centre()
{
    return 0.5 * (frame.cell[0].xyz + frame.cell[1].xyz + frame.cell[2].xyz);
}

/* p wrapped into the drawn triclinic outline: the parallelepiped (by its
 * fractional coordinates) or the Wigner-Seitz cell (the image nearest the
 * centre: rounding c, b, a, then the 26 images around). */
vec3 cell_wrap(vec3 p)
{
    vec3 a = frame.cell[0].xyz, b = frame.cell[1].xyz, c = frame.cell[2].xyz;
    vec3 d = p - cell_centre();
    d -= c * floor(d.z / c.z + 0.5);
    d -= b * floor(d.y / b.y + 0.5);
    d -= a * floor(d.x / a.x + 0.5);
    if (frame.cell[0].w == float(VKMD_VIEW_BOX_WIGNER)) {
        vec3 best = d;
        for (int i = -1; i <= 1; ++i)
            for (int j = -1; j <= 1; ++j)
                for (int k = -1; k <= 1; ++k) {
                    vec3 t = d + float(i) * a + float(j) * b + float(k) * c;
                    if (dot(t, t) < dot(best, best))
                        best = t;
                }
        d = best;
    }
    return cell_centre() + d;
}

/* Where atom i is drawn: replicas side by side on a grid (columns x rows x
 * layers of frame.scale.z A) when asked, else where it is (in a triclinic
 * cell, wrapped into the drawn outline). */
vec3 atom_pos(uint i)
{
    vec3 p = positions[i].xyz;
    if (frame.cell[0].w >= float(VKMD_VIEW_BOX_WIGNER))
        p = cell_wrap(p);
    if (frame.scale.z > 0.0) {
        uint r = atoms[i].w >> 8, nx = max(frame.counts.z, 1u), ny = max(frame.counts.w, 1u);
        p += frame.scale.z * vec3(float(r % nx), float((r / nx) % ny), float(r / (nx * ny)));
    }
    return p;
}

vec3 atom_color(uint i)
{
    uint mode = frame.mode.x;
    if (mode == VKMD_VIEW_COLOR_VELOCITY) {
        vec4 v = velocities[i];
        /* 1 amu A^2/fs^2 = 2390.057 kcal/mol; k_B = 0.0019872041 kcal/mol/K. */
        float mass = frame.scale.w > 0.0 ? v.w : 1.0 / max(v.w, 1e-12);
        float ke = 0.5 * mass * dot(v.xyz, v.xyz) * 2390.057;
        float t_local = 2.0 * ke / (3.0 * 0.0019872041);
        return heat(0.5 * t_local / max(frame.scale.x, 1.0)); /* bath T: green */
    }
    if (mode == VKMD_VIEW_COLOR_FORCE) {
        vec3 f = vec3(force_component(0u, i), force_component(1u, i), force_component(2u, i));
        /* log scale: 1 kcal/mol/A -> blue, 300 -> red */
        return heat(log(max(length(f), 1.0)) / log(300.0));
    }
    if (mode == VKMD_VIEW_COLOR_REPLICA) {
        float r = float(atoms[i].w >> 8);
        vec3 h = fract(vec3(0.0, 0.333, 0.667) + r * 0.618034);
        return 0.35 + 0.6 * abs(h * 2.0 - 1.0);
    }
    return unpackUnorm4x8(atoms[i].x).rgb;
}

/* Atom i is drawn in the current water mode as spheres/cylinders. */
bool atom_visible(uint i)
{
    /* Virtual sites: hidden by the v key or with their water; in the water
     * lines mode still drawn as small spheres (a 4-site water's site is
     * inside its oxygen's sphere otherwise). */
    if ((atoms[i].w & VKMD_VIEW_ATOM_VSITE) != 0u)
        return (frame.mode.z & VKMD_VIEW_VSITES_HIDDEN) == 0u &&
               ((atoms[i].w & VKMD_VIEW_ATOM_WATER) == 0u ||
                (frame.mode.z & VKMD_VIEW_WATER_MASK) != VKMD_VIEW_WATER_HIDDEN);
    return (atoms[i].w & VKMD_VIEW_ATOM_WATER) == 0u ||
           (frame.mode.z & VKMD_VIEW_WATER_MASK) == VKMD_VIEW_WATER_SHOWN;
}

float atom_radius(uint i)
{
    float r = uintBitsToFloat(frame.mode.y == VKMD_VIEW_REP_VDW ? atoms[i].y : atoms[i].z);
    /* a virtual site beside its water's lines: a dot, not a ball */
    if ((atoms[i].w & (VKMD_VIEW_ATOM_VSITE | VKMD_VIEW_ATOM_WATER)) ==
            (VKMD_VIEW_ATOM_VSITE | VKMD_VIEW_ATOM_WATER) &&
        (frame.mode.z & VKMD_VIEW_WATER_MASK) == VKMD_VIEW_WATER_THIN)
        r = min(r, 0.12);
    return r;
}

/* Simple lighting: a head light from the upper left plus ambient. */
vec3 shade(vec3 base, vec3 n_view)
{
    vec3 l = normalize(vec3(-0.4, 0.5, 1.0)); /* towards the light (upper left), view space */
    float d = max(dot(n_view, l), 0.0);
    vec3 h = normalize(l + vec3(0.0, 0.0, 1.0));
    float s = pow(max(dot(n_view, h), 0.0), 40.0);
    return base * (0.3 + 0.7 * d) + vec3(0.25 * s);
}
