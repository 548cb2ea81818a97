/* Layouts of the FIRE energy minimiser (shaders/minimize_fire.comp;
 * engine/sim/minimize.c), shared by C and GLSL: included by
 * common/vkmd_layout.h; same rules as there. Spec ids 56..63 are this
 * module's.
 *
 * minimize_fire.comp is one shader with a MODE specialization constant per
 * piece of a FIRE iteration (the algorithm is in engine/sim/minimize.h):
 *   ACCEL   per atom: velocities.xyz = a = F w VKMD_ACCEL_PER_FORCE_MASS
 *           (w = velocities.w = 1/m), for the velocity constraint to project
 *           (constrained runs only)
 *   REDUCE  per atom, then a fixed-order tree per workgroup: partials[group] =
 *           (sum |f|^2, max |f|^2, sum f.v, sum |v|^2) with f the force
 *           (constrained: m a_c from the projected accelerations) and v
 *           FIRE's velocity
 *   STATE   one workgroup: sums the partials in a fixed order and advances
 *           FIRE's scalars (convergence test, P > 0 or reset, dt, alpha,
 *           mixing coefficients) in the state buffer
 *   MOVE    per atom: v = keep v + mix f + dt a; x_ref = x; x += dt v (capped)
 * Every sum is a tree in a fixed order, so a run gives the same bits every
 * time (no float atomics). */
#ifndef VKMD_LAYOUT_MINIMIZE_H
#define VKMD_LAYOUT_MINIMIZE_H

#define VKMD_SPEC_MINIMIZE_MODE        56
#define VKMD_SPEC_MINIMIZE_CONSTRAINED 57 /* 1: a and f from the projected velocities.xyz */

#define VKMD_MINIMIZE_WORKGROUP_SIZE 256 /* REDUCE's atoms per partial; every mode uses it */

#define VKMD_MINIMIZE_MODE_ACCEL  0
#define VKMD_MINIMIZE_MODE_REDUCE 1
#define VKMD_MINIMIZE_MODE_STATE  2
#define VKMD_MINIMIZE_MODE_MOVE   3
#define VKMD_MINIMIZE_MODE_COUNT  4

/* Bindings (every mode binds all of them). */
#define VKMD_MINIMIZE_BINDING_POSITIONS     0 /* vec4 [N] xyz A */
#define VKMD_MINIMIZE_BINDING_POSITIONS_REF 1 /* vec4 [N]: positions before the last move */
#define VKMD_MINIMIZE_BINDING_VELOCITIES    2 /* vec4 [N]: w = 1/m (1/amu); xyz scratch (a) */
#define VKMD_MINIMIZE_BINDING_FORCES        3 /* fixed [3N], planes x | y | z */
#define VKMD_MINIMIZE_BINDING_FIRE_VEL      4 /* vec4 [N]: FIRE's velocity, A/fs */
#define VKMD_MINIMIZE_BINDING_PARTIALS      5 /* vec4 [groups]: REDUCE's per-workgroup sums */
#define VKMD_MINIMIZE_BINDING_STATE         6 /* vkmd_minimize_state [1] */
#define VKMD_MINIMIZE_BINDING_POSITIONS_X   7 /* uvec4 [2N]: split parts (positions.glsl) */
#define VKMD_MINIMIZE_BINDING_REF_X         8 /* uvec4 [2N]: split parts of POSITIONS_REF */
#define VKMD_MINIMIZE_BINDING_COUNT         9

/* Status (state.u.z). */
#define VKMD_MINIMIZE_RUNNING   0u
#define VKMD_MINIMIZE_CONVERGED 1u /* max |f| < force_tol */
#define VKMD_MINIMIZE_STOPPED   2u /* max_iterations moves made */
#define VKMD_MINIMIZE_NONFINITE 3u /* a force sum was NaN or infinite */

/* FIRE's scalars, written by STATE (one thread), read by MOVE and the host.
 * f: dt fs, alpha, keep (factor on v), mix (factor on f, A/fs per kcal/mol/A)
 * g: max |f| kcal/mol/A, RMS |f| (sqrt(sum |f|^2 / N)), power P = f.v,
 *    |v| A/fs, all at the positions evaluated last
 * u: n_pos (P > 0 iterations since the last reset), moves made, status,
 *    the move count at which g was measured */
#define VKMD_MINIMIZE_STATE_FIELDS                                                                 \
    VKMD_VEC4 f;                                                                                   \
    VKMD_VEC4 g;                                                                                   \
    VKMD_UVEC4 u;

/* group_count: REDUCE workgroups (partials); measure_only: STATE records
 * the norms of the current forces and only marks a running minimisation
 * converged when max |f| < force_tol (the initial and final evaluations);
 * fire: FIRE's parameters (common/layout_fire.h). Lengths A, times fs,
 * forces kcal/mol/A. */
#define VKMD_MINIMIZE_PUSH_FIELDS                                                                  \
    VKMD_UINT atom_count;                                                                          \
    VKMD_UINT group_count;                                                                         \
    VKMD_UINT max_iterations;                                                                      \
    VKMD_UINT measure_only;                                                                        \
    VKMD_FLOAT force_tol;                                                                          \
    VKMD_FLOAT accel_per_force_mass; /* VKMD_ACCEL_PER_FORCE_MASS */                               \
    vkmd_fire_push fire;                                                                           \
    VKMD_UINT pad0;                                                                                \
    VKMD_UINT pad1;                                                                                \
    VKMD_UINT pad2;

struct vkmd_minimize_state {
    VKMD_MINIMIZE_STATE_FIELDS
};

#ifdef __STDC__
typedef struct vkmd_minimize_state vkmd_minimize_state;
typedef struct vkmd_minimize_push {
    VKMD_MINIMIZE_PUSH_FIELDS
} vkmd_minimize_push;
_Static_assert(sizeof(vkmd_minimize_state) == 48, "std430 vkmd_minimize_state is 48 bytes");
_Static_assert(offsetof(vkmd_minimize_state, g) == 16, "state.g at 16");
_Static_assert(offsetof(vkmd_minimize_state, u) == 32, "state.u at 32");
_Static_assert(sizeof(vkmd_minimize_push) == 64, "minimize push constants are 64 bytes");
_Static_assert(offsetof(vkmd_minimize_push, measure_only) == 12, "push.measure_only at 12");
_Static_assert(offsetof(vkmd_minimize_push, force_tol) == 16, "push.force_tol at 16");
_Static_assert(offsetof(vkmd_minimize_push, accel_per_force_mass) == 20,
               "push.accel_per_force_mass at 20");
_Static_assert(offsetof(vkmd_minimize_push, fire) == 24, "push.fire at 24");
#endif

#endif
