/* Layouts of the multi-replica UFF pass (shaders/uff.comp,
 * engine/forces/pass_uff.c, packed by engine/system/uff_batch.c), shared by C
 * and GLSL: included by common/vkmd_layout.h (which defines VKMD_VEC4 etc.);
 * same rules as there (vec4/uvec4 records, push-constant field-list macros,
 * _Static_assert every size and offset on the C side under __STDC__).
 *
 * A batch is R replicas, each a copy of one of M molecules (its own
 * coordinates). The terms of each molecule are packed once, kind by kind
 * (bonds, angles, torsions, inversions, pairs); replicas of a molecule share
 * them. The dispatch's global id runs over "items" (one term of one
 * replica), grouped into ranges: a range is one kind of one molecule over
 * all replicas of that molecule. Inside a range, item l is term
 * term_start + l / replica_count of the replica in slot
 * slot_start + l % replica_count: neighbouring threads evaluate the SAME term
 * (same parameters, same branch) for different replicas, so a GPU
 * warp/wave runs without divergence except at range boundaries.
 *
 * Surprise: the energies are not the 16 AMBER slots of vkmd_layout.h but a
 * buffer of their own, VKMD_UFF_ENERGY_STRIDE int64 slots per replica. */
#ifndef VKMD_LAYOUT_UFF_H
#define VKMD_LAYOUT_UFF_H

/* ---- Specialization constants (ids 32..39 are this module's) ------------ */
/* uff.comp: the replica whose per-interaction details go to the debug buffer;
 * VKMD_UFF_DEBUG_NONE (the default) compiles the debug writes away. */
#define VKMD_SPEC_UFF_DEBUG_REPLICA 32
/* bool: one invocation per replica walking its molecule's terms (forces/
 * pass_uff.h: vkmd_pass_uff_per_replica), not one per item */
#define VKMD_SPEC_UFF_PER_REPLICA 35
#define VKMD_UFF_DEBUG_NONE       0xFFFFFFFFu

#define VKMD_UFF_WORKGROUP_SIZE 64 /* default; any power of two the device allows */

/* ---- Term kinds (ranges and the debug records name them) ---------------- */
#define VKMD_UFF_KIND_BOND      0
#define VKMD_UFF_KIND_ANGLE     1
#define VKMD_UFF_KIND_TORSION   2
#define VKMD_UFF_KIND_INVERSION 3
#define VKMD_UFF_KIND_PAIR      4 /* van der Waals and (with charges) Coulomb */
#define VKMD_UFF_KIND_COUNT     5

/* ---- Energies: int64 [replica_count * VKMD_UFF_ENERGY_STRIDE] ------------
 * Same fixed point as the forces (VKMD_FIXED_SCALE per kcal/mol); replica r's
 * slot s is at r * VKMD_UFF_ENERGY_STRIDE + s. */
#define VKMD_UFF_ENERGY_BOND      0
#define VKMD_UFF_ENERGY_ANGLE     1
#define VKMD_UFF_ENERGY_TORSION   2
#define VKMD_UFF_ENERGY_INVERSION 3
#define VKMD_UFF_ENERGY_VDW       4
#define VKMD_UFF_ENERGY_COULOMB   5
#define VKMD_UFF_ENERGY_COUNT     6
#define VKMD_UFF_ENERGY_STRIDE    8 /* slots 6, 7 unused (64-byte rows) */

/* ---- Bindings ------------------------------------------------------------ */
#define VKMD_UFF_BINDING_POSITIONS 0 /* vec4 [atom_count], xyz in A, every replica's atoms */
/* int64 [3 * atom_count], fixed point, added to; planes x | y | z over all
 * atoms of the batch (VKMD_FORCE_INDEX(axis, atom_offset + a, atom_count)) */
#define VKMD_UFF_BINDING_FORCES   1
#define VKMD_UFF_BINDING_ENERGIES 2 /* int64 [replica_count * VKMD_UFF_ENERGY_STRIDE], added to */
#define VKMD_UFF_BINDING_TERMS    3 /* vkmd_uff_term [term_count]: every molecule, kind-ordered */
#define VKMD_UFF_BINDING_RANGES   4 /* vkmd_uff_range [range_count], item_start increasing */
/* uvec4 [replica_count] in slot order (replicas grouped by molecule):
 * x replica index, y first atom (atom offset), z atom count, w molecule */
#define VKMD_UFF_BINDING_SLOTS 5
/* vkmd_uff_debug_record [terms of the debug replica's molecule]; one record
 * with VKMD_UFF_DEBUG_NONE */
#define VKMD_UFF_BINDING_DEBUG 6
#define VKMD_UFF_BINDING_COUNT 7

/* One term of one molecule. Atom indices are molecule-local (0-based).
 * atoms:  bond (i, j, -, -); angle (i, j centre, k, -); torsion (i, j, k, l)
 *         about j-k; inversion (i, j centre, k, l out of plane); pair (i, j, -, -).
 * params and aux (derived on the host in double, so that the float forms
 * need no cancelling sums; see shaders/common/uff_forms.glsl):
 *   bond      params (kb kcal/mol/A^2, r0 A, r0^2 A^2, r0^2 - float(r0^2)), aux -
 *   angle     params (ka kcal/mol, k2 = 2 ka C2, cos0, cos0 - float(cos0))
 *             aux (e0 = ka (C0 - C2 - 2 C2 cos0^2) kcal/mol, -, -, order)
 *             with cos0 = -C1 / (4 C2) (order 0)
 *   torsion   params (V kcal/mol, cos_term, -, -), aux (-, -, -, n)
 *   inversion params (K kcal/mol, coef, x0, e0), aux (-, -, -, form):
 *             form 0 (C2 = 0): E = K (e0 + coef cos^2 Y / (1 + sin Y)),
 *               e0 = C0 + C1, coef = -C1;
 *             form 1: E = K (e0 + coef (sin Y - x0)^2), coef = 2 C2,
 *               x0 = -C1 / (4 C2), e0 = C0 - C2 - 2 C2 x0^2
 *   pair      params (x_ij^2 A^2, d_ij kcal/mol, qq kcal/mol A,
 *             (vdw_threshold x_ij)^2 A^2), aux -
 * aux.w is a small integer stored as a float (order, n, form). */
#define VKMD_UFF_TERM_FIELDS                                                                       \
    VKMD_UVEC4 atoms;                                                                              \
    VKMD_VEC4 params;                                                                              \
    VKMD_VEC4 aux;

/* One range of items (see the file comment).
 * a: item_start, term_start (index into the term table), slot_start,
 *    replica_count (> 0).
 * b: kind (VKMD_UFF_KIND_*), molecule_term_start (the molecule's first term:
 *    debug record index = term - molecule_term_start), molecule, -.
 * After the range_count ranges, one record per molecule m (index
 * range_count + m) gives its terms by kind for the per-replica kernel:
 * a = first term of kinds 0..3, b.x = first of kind 4, b.y = its end. */
#define VKMD_UFF_RANGE_FIELDS                                                                      \
    VKMD_UVEC4 a;                                                                                  \
    VKMD_UVEC4 b;

/* Per-interaction details of the debug replica, written by the device.
 * atoms: molecule-local atoms as in the term.
 * info:  kind, index of the term within its kind, 1 (written), order/n/form.
 * geom:  bond (r A, r - r0 A, -, -); angle (cos theta, sin theta, theta rad,
 *        -); torsion (cos phi, sin phi, phi rad in [0, pi], -); inversion
 *        (cos Y, sin Y, Y rad, -); pair (r A, 1 if within the vdW threshold,
 *        -, -).
 * energy: x E kcal/mol (van der Waals for pairs), y the derivative the
 *        forces come from (bond dE/dr kcal/mol/A; angular terms dE/dcos
 *        kcal/mol; pair -(dE/dr)/r of vdW, kcal/mol/A^2), z Coulomb E, w
 *        Coulomb -(dE/dr)/r.
 * force: xyz force on atoms (i, j, k, l) of `atoms` from this term, kcal/mol/A. */
#define VKMD_UFF_DEBUG_FIELDS                                                                      \
    VKMD_UVEC4 atoms;                                                                              \
    VKMD_UVEC4 info;                                                                               \
    VKMD_VEC4 geom;                                                                                \
    VKMD_VEC4 energy;                                                                              \
    VKMD_VEC4 force[4];

/* item_count: items of the dispatch; range_count; atom_count: atoms of the
 * batch (the force planes' length); replica_count. */
#define VKMD_UFF_PUSH_FIELDS                                                                       \
    VKMD_UINT item_count;                                                                          \
    VKMD_UINT range_count;                                                                         \
    VKMD_UINT atom_count;                                                                          \
    VKMD_UINT replica_count;

struct vkmd_uff_term {
    VKMD_UFF_TERM_FIELDS
};
struct vkmd_uff_range {
    VKMD_UFF_RANGE_FIELDS
};
struct vkmd_uff_debug_record {
    VKMD_UFF_DEBUG_FIELDS
};

#ifdef __STDC__
typedef struct vkmd_uff_term vkmd_uff_term;
typedef struct vkmd_uff_range vkmd_uff_range;
typedef struct vkmd_uff_debug_record vkmd_uff_debug_record;
typedef struct vkmd_uff_push {
    VKMD_UFF_PUSH_FIELDS
} vkmd_uff_push;

_Static_assert(sizeof(vkmd_uff_term) == 48, "std430 vkmd_uff_term is 48 bytes");
_Static_assert(offsetof(vkmd_uff_term, params) == 16, "term.params at 16");
_Static_assert(offsetof(vkmd_uff_term, aux) == 32, "term.aux at 32");
_Static_assert(sizeof(vkmd_uff_range) == 32, "std430 vkmd_uff_range is 32 bytes");
_Static_assert(offsetof(vkmd_uff_range, b) == 16, "range.b at 16");
_Static_assert(sizeof(vkmd_uff_debug_record) == 128, "std430 debug record is 128 bytes");
_Static_assert(offsetof(vkmd_uff_debug_record, info) == 16, "debug.info at 16");
_Static_assert(offsetof(vkmd_uff_debug_record, geom) == 32, "debug.geom at 32");
_Static_assert(offsetof(vkmd_uff_debug_record, energy) == 48, "debug.energy at 48");
_Static_assert(offsetof(vkmd_uff_debug_record, force) == 64, "debug.force at 64");
_Static_assert(sizeof(vkmd_uff_push) == 16, "uff push constants are 16 bytes");
_Static_assert(VKMD_UFF_ENERGY_COUNT <= VKMD_UFF_ENERGY_STRIDE, "energy slots fit the stride");
_Static_assert(VKMD_UFF_ENERGY_BOND == VKMD_UFF_KIND_BOND &&
                   VKMD_UFF_ENERGY_ANGLE == VKMD_UFF_KIND_ANGLE &&
                   VKMD_UFF_ENERGY_TORSION == VKMD_UFF_KIND_TORSION &&
                   VKMD_UFF_ENERGY_INVERSION == VKMD_UFF_KIND_INVERSION,
               "bonded kinds index their energy slot directly");
#endif

/* ---- Surfaces (shaders/uff_surface_*.comp, engine/forces/pass_uff_surface.c,
 * host side engine/system/uff_surface.c): every batch atom against a periodic
 * substrate (x, y periodic, finite in z), directly or through a potential
 * grid. The surface energy goes to slot VKMD_UFF_ENERGY_SURFACE of each
 * replica's row; it is NOT among the VKMD_UFF_ENERGY_COUNT slots that
 * vkmd_pass_uff_energy_from_fixed sums into the molecule's total. Slot
 * VKMD_UFF_ENERGY_SURFACE_BELOW counts (as the integer 1 per atom, not
 * scaled) atoms below the grid's lowest plane in grid mode. */
#define VKMD_UFF_ENERGY_SURFACE       6
#define VKMD_UFF_ENERGY_SURFACE_BELOW 7

/* uff_surface_direct/grid_build: the pair form, VKMD_UFF_SURFACE_FORM_*. */
#define VKMD_SPEC_UFF_SURFACE_FORM  33
#define VKMD_UFF_SURFACE_FORM_LJ    0 /* UFF LJ 12-6 */
#define VKMD_UFF_SURFACE_FORM_MORSE 1 /* Morse with the UFF well, alpha = 6 / r0 */

#define VKMD_UFF_SURFACE_BINDING_POSITIONS 0 /* vec4 [atom_count], the UFF pass's */
#define VKMD_UFF_SURFACE_BINDING_FORCES    1 /* int64 [3 * atom_count], added to */
#define VKMD_UFF_SURFACE_BINDING_ENERGIES  2 /* int64 [replicas * VKMD_UFF_ENERGY_STRIDE] */
/* uvec4 [atom_count]: x channel (the atom's UFF type among the surface's
 * channels), y replica, z, w unused */
#define VKMD_UFF_SURFACE_BINDING_ATOMS 3
/* vec4 [image_count]: substrate atoms and their x-y images that can be within
 * the cutoff of a point of the cell: xyz A, w substrate kind (float) */
#define VKMD_UFF_SURFACE_BINDING_IMAGES 4
/* vec4 [channel_count * kind_count], channel-major: (D kcal/mol, r0 A,
 * alpha 1/A (Morse), E(cutoff) kcal/mol subtracted so E is 0 at the cutoff) */
#define VKMD_UFF_SURFACE_BINDING_PAIRS 5
/* float: grid build writes values [channel][nz][ny][nx] kcal/mol; grid eval
 * reads prefiltered B-spline coefficients [channel][nz + 2][ny][nx] (planes
 * k = -1 .. nz) */
#define VKMD_UFF_SURFACE_BINDING_GRID  6
#define VKMD_UFF_SURFACE_BINDING_COUNT 7

/* Shared by the three surface shaders.
 * counts:  atom_count (batch atoms), image_count, kind_count, channel_count
 * grid_n:  nx, ny, nz (grid points; x and y periodic), point_count (nx ny nz)
 * cell:    (a.x, a.y, b.x, b.y) in-plane lattice vectors, A
 * inv_cell: rows of the inverse of [a b] (fractional u = inv (x, y)):
 *          (i00, i01, i10, i11)
 * zgrid:   (z0 of plane 0 A, dz A, cutoff^2 A^2, -) */
#define VKMD_UFF_SURFACE_PUSH_FIELDS                                                               \
    VKMD_UVEC4 counts;                                                                             \
    VKMD_UVEC4 grid_n;                                                                             \
    VKMD_VEC4 cell;                                                                                \
    VKMD_VEC4 inv_cell;                                                                            \
    VKMD_VEC4 zgrid;

#define VKMD_UFF_SURFACE_WORKGROUP_SIZE 64

#ifdef __STDC__
typedef struct vkmd_uff_surface_push {
    VKMD_UFF_SURFACE_PUSH_FIELDS
} vkmd_uff_surface_push;
_Static_assert(sizeof(vkmd_uff_surface_push) == 80, "surface push constants are 80 bytes");
_Static_assert(offsetof(vkmd_uff_surface_push, cell) == 32, "surface push cell at 32");
_Static_assert(VKMD_UFF_ENERGY_SURFACE >= VKMD_UFF_ENERGY_COUNT &&
                   VKMD_UFF_ENERGY_SURFACE_BELOW < VKMD_UFF_ENERGY_STRIDE,
               "surface slots are beyond the molecule's and inside the row");
#endif

/* ---- FIRE minimiser (shaders/uff_fire.comp, engine/sim/uff_fire.c) -------
 * One workgroup per replica (grid-stride over replicas): its threads loop
 * over the replica's atoms, and per-replica sums (|F|^2, max |F|^2, F.v,
 * |v|^2) reduce in shared memory in a fixed tree order, so a run is
 * deterministic. Positions are the force pass's float positions plus a
 * float correction per atom (compensated sums: steps far below one ulp of
 * a coordinate still move it). The kernel zeroes the forces and energies
 * it has read, so the next step's force pass needs no clear (two transfer
 * commands and two barriers fewer per step). */
#define VKMD_UFF_FIRE_BINDING_POSITIONS 0 /* vec4 [atom_count]: the pass's positions, updated */
/* int64 [3 * atom_count]: the pass's force planes, zeroed once read */
#define VKMD_UFF_FIRE_BINDING_FORCES     1
#define VKMD_UFF_FIRE_BINDING_VELOCITIES 2 /* vec4 [atom_count]: FIRE velocities (xyz) */
#define VKMD_UFF_FIRE_BINDING_POS_LO     3 /* vec4 [atom_count]: float correction of positions */
#define VKMD_UFF_FIRE_BINDING_REPLICAS   4 /* uvec4 [replica_count]: (first atom, atoms, -, -) */
#define VKMD_UFF_FIRE_BINDING_STATE      5 /* vkmd_uff_fire_state [replica_count] */
/* int64 [replica_count * VKMD_UFF_ENERGY_STRIDE]: the pass's energies, zeroed once read */
#define VKMD_UFF_FIRE_BINDING_ENERGIES 6
#define VKMD_UFF_FIRE_BINDING_COUNT    7
#define VKMD_UFF_FIRE_WORKGROUP_SIZE   64 /* at most; 16-64 by molecule size */

/* Flags of a replica's FIRE state. */
#define VKMD_UFF_FIRE_CONVERGED 1u /* criterion met; the replica no longer moves */
#define VKMD_UFF_FIRE_STOPPED   2u /* max_steps reached unconverged */

/* Per-replica FIRE state.
 * f: dt, alpha, max |F| kcal/mol/A, RMS |F| kcal/mol/A (at the last check);
 * u: steps since the last uphill step (N_min count), steps taken, flags, -. */
#define VKMD_UFF_FIRE_STATE_FIELDS                                                                 \
    VKMD_VEC4 f;                                                                                   \
    VKMD_UVEC4 u;

/* Criterion: 0 max |F|, 1 RMS (VKMD_UFF_FIRE_*_FORCE of uff_fire.h); fire:
 * FIRE's parameters (common/layout_fire.h). */
#define VKMD_UFF_FIRE_PUSH_FIELDS                                                                  \
    VKMD_UINT replica_count;                                                                       \
    VKMD_UINT atom_count;                                                                          \
    VKMD_UINT max_steps;                                                                           \
    VKMD_UINT criterion;                                                                           \
    VKMD_FLOAT ftol;                                                                               \
    vkmd_fire_push fire;

struct vkmd_uff_fire_state {
    VKMD_UFF_FIRE_STATE_FIELDS
};

#ifdef __STDC__
typedef struct vkmd_uff_fire_state vkmd_uff_fire_state;
typedef struct vkmd_uff_fire_push {
    VKMD_UFF_FIRE_PUSH_FIELDS
} vkmd_uff_fire_push;
_Static_assert(sizeof(vkmd_uff_fire_state) == 32, "std430 FIRE state is 32 bytes");
_Static_assert(offsetof(vkmd_uff_fire_state, u) == 16, "fire state.u at 16");
_Static_assert(sizeof(vkmd_uff_fire_push) == 48, "FIRE push constants are 48 bytes");
_Static_assert(offsetof(vkmd_uff_fire_push, fire) == 20, "FIRE push.fire at 20");
#endif

/* ---- Langevin dynamics (shaders/uff_md.comp, engine/sim/uff_md.c) -------
 * BAOAB around the force pass, one workgroup per replica as in FIRE. Phase
 * (specialization constant): VKMD_UFF_MD_PHASE_BAOA reads the forces (B),
 * drifts, applies the Ornstein-Uhlenbeck step and drifts (A O A), and zeroes
 * the forces and energies for the force pass; VKMD_UFF_MD_PHASE_B kicks
 * with the new forces, sums the kinetic energy in a fixed order into the
 * replica's state and counts the step. */
#define VKMD_SPEC_UFF_MD_PHASE     34
#define VKMD_UFF_MD_PHASE_BAOA     0
#define VKMD_UFF_MD_PHASE_B        1
#define VKMD_UFF_MD_WORKGROUP_SIZE 64 /* at most; 16-64 by molecule size */

#define VKMD_UFF_MD_BINDING_POSITIONS  0 /* vec4 [atom_count]: the pass's positions */
#define VKMD_UFF_MD_BINDING_FORCES     1 /* the pass's force planes */
#define VKMD_UFF_MD_BINDING_ENERGIES   2 /* the pass's energy rows */
#define VKMD_UFF_MD_BINDING_VELOCITIES 3 /* vec4 [atom_count]: xyz A/fs, w mass amu */
#define VKMD_UFF_MD_BINDING_REPLICAS   4 /* uvec4 [replica_count]: (first atom, atoms, -, -) */
#define VKMD_UFF_MD_BINDING_STATE      5 /* vkmd_uff_md_state [replica_count] */
#define VKMD_UFF_MD_BINDING_COUNT      6

/* Per-replica MD state.
 * f: kinetic energy summed over the run's steps (kcal/mol) and its Kahan
 *    compensation, kinetic energy of the last step, -;
 * u: steps made (the Philox counter's step), step limit of the run, -, -. */
#define VKMD_UFF_MD_STATE_FIELDS                                                                   \
    VKMD_VEC4 f;                                                                                   \
    VKMD_UVEC4 u;

/* seed: Philox key; dt_fs; c1 = exp(-gamma dt); c2 = sqrt(1 - c1^2);
 * kt: kB T kcal/mol. */
#define VKMD_UFF_MD_PUSH_FIELDS                                                                    \
    VKMD_UINT replica_count;                                                                       \
    VKMD_UINT atom_count;                                                                          \
    VKMD_UINT seed_lo;                                                                             \
    VKMD_UINT seed_hi;                                                                             \
    VKMD_FLOAT dt_fs;                                                                              \
    VKMD_FLOAT c1;                                                                                 \
    VKMD_FLOAT c2;                                                                                 \
    VKMD_FLOAT kt;

struct vkmd_uff_md_state {
    VKMD_UFF_MD_STATE_FIELDS
};

#ifdef __STDC__
typedef struct vkmd_uff_md_state vkmd_uff_md_state;
typedef struct vkmd_uff_md_push {
    VKMD_UFF_MD_PUSH_FIELDS
} vkmd_uff_md_push;
_Static_assert(sizeof(vkmd_uff_md_state) == 32, "std430 MD state is 32 bytes");
_Static_assert(offsetof(vkmd_uff_md_state, u) == 16, "md state.u at 16");
_Static_assert(sizeof(vkmd_uff_md_push) == 32, "MD push constants are 32 bytes");
#endif

#endif
