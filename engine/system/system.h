/* Host-side model of a molecular system: atoms, AMBER-style parameters,
 * topology, coordinates and the periodic box.
 *
 * Units everywhere: Angstrom, amu, elementary charge, kcal/mol, radians, fs,
 * A/fs for velocities. Functional forms (AMBER conventions, no factor 1/2):
 *   bond      E = k (r - r0)^2
 *   angle     E = k (theta - theta0)^2
 *   dihedral  E = k (1 + cos(n phi - phase))      (propers and impropers)
 *   LJ        E = A_ij / r^12 - B_ij / r^6        (type-pair tables)
 *   1-4 pair  LJ / scnb + coulomb_k q_i q_j / (scee r)
 * CHARMM terms (chamber prmtops; CMAP also in AMBER ff19SB prmtops):
 *   Urey-Bradley       E = k (r_ik - r0)^2 over an angle's outer atoms
 *   harmonic improper  E = k (psi - psi0)^2, psi - psi0 wrapped to [-pi, pi)
 *   CMAP               E = bicubic spline of a grid over (phi, psi)
 *   1-4 pair           LJ from the 1-4 tables (lj14_a, lj14_b) when present
 * Charges are in units of e (a prmtop's stored charges divided by 18.2223).
 *
 * A vkmd_system owns every array it points to; vkmd_system_destroy frees them.
 * Readers (engine/io) and builders (water:N) fill it; nothing here knows
 * Vulkan. */
#ifndef VKMD_SYSTEM_SYSTEM_H
#define VKMD_SYSTEM_SYSTEM_H

#include "core/result.h"
#include "system/box.h"

#include <stdint.h>

typedef struct vkmd_atom {
    char name[8];      /* atom name, e.g. "CA" (NUL-terminated) */
    char type_name[8]; /* AMBER atom type, e.g. "CT" */
    char res_name[8];  /* residue name, e.g. "ALA", "WAT" */
    int32_t res_index; /* 0-based residue index */
    int32_t element;   /* atomic number, 0 if unknown */
    double charge;     /* e */
    double mass;       /* amu */
    int32_t lj_type;   /* 0-based index into the LJ type tables */
} vkmd_atom;

typedef struct vkmd_bond {
    int32_t i, j;
    double k;  /* kcal/mol/A^2, E = k (r - r0)^2 */
    double r0; /* A */
} vkmd_bond;

typedef struct vkmd_angle {
    int32_t i, j, k; /* j is the apex */
    double k_theta;  /* kcal/mol/rad^2, E = k (theta - theta0)^2 */
    double theta0;   /* rad */
} vkmd_angle;

typedef struct vkmd_dihedral {
    int32_t i, j, k, l;
    double k_phi;        /* kcal/mol, E = k (1 + cos(n phi - phase)) */
    double phase;        /* rad */
    int32_t periodicity; /* n >= 0 (prmtop stores it as a float) */
    int32_t improper;    /* 1 for impropers (prmtop: negative 4th index) */
} vkmd_dihedral;

typedef struct vkmd_pair14 {
    int32_t i, j;
    double scee; /* Coulomb divided by this (AMBER default 1.2) */
    double scnb; /* LJ divided by this (AMBER default 2.0) */
} vkmd_pair14;

typedef struct vkmd_pair {
    int32_t i, j; /* i < j */
} vkmd_pair;

/* CHARMM harmonic improper: psi is the dihedral i-j-k-l (IUPAC sign, as
 * dihedrals); i is the central atom in CHARMM's convention. */
typedef struct vkmd_improper_harmonic {
    int32_t i, j, k, l;
    double k_psi; /* kcal/mol/rad^2, E = k (psi - psi0)^2 */
    double psi0;  /* rad */
} vkmd_improper_harmonic;

/* CMAP correction map: energies on a regular periodic grid, phi-major:
 * grid[p * resolution + q] is the energy at phi = -180 + p * 360 / resolution
 * and psi = -180 + q * 360 / resolution degrees (AMBER's and CHARMM's layout). */
typedef struct vkmd_cmap_map {
    int32_t resolution; /* points per axis, >= 4 */
    double *grid;       /* [resolution^2] kcal/mol, owned by the system */
} vkmd_cmap_map;

/* One CMAP term: phi is the dihedral i-j-k-l and psi j-k-l-m. */
typedef struct vkmd_cmap {
    int32_t i, j, k, l, m;
    int32_t map; /* 0-based index into cmap_maps */
} vkmd_cmap;

/* Rigid 3-site water recognised for SETTLE: oxygen then the two hydrogens. */
typedef struct vkmd_water {
    int32_t o, h1, h2;
} vkmd_water;

/* A virtual site (extra point): atom `site` (massless) placed from up to
 * three parents by `kind` (VKMD_VSITE_*, forms in system/vsite.h) with
 * weights w (dimensionless; OUT_OF_PLANE's w[2] in 1/A). */
typedef struct vkmd_vsite {
    int32_t kind;
    int32_t site;
    int32_t parents[3];
    double w[3];
} vkmd_vsite;

typedef struct vkmd_system {
    char title[128];
    int32_t atom_count;
    vkmd_atom *atoms;

    int32_t lj_type_count;
    double *lj_a; /* [lj_type_count^2] kcal/mol A^12, symmetric */
    double *lj_b; /* [lj_type_count^2] kcal/mol A^6, symmetric */

    int32_t bond_count;
    vkmd_bond *bonds;
    int32_t angle_count;
    vkmd_angle *angles;
    int32_t dihedral_count;
    vkmd_dihedral *dihedrals;
    int32_t pair14_count;
    vkmd_pair14 *pairs14;
    /* Non-bonded exclusions (1-2, 1-3 and 1-4 pairs), i < j, sorted by (i, j),
     * no duplicates. 1-4 pairs are both excluded and listed in pairs14. */
    int32_t exclusion_count;
    vkmd_pair *exclusions;
    int32_t water_count;
    vkmd_water *waters;
    /* Virtual sites (system/vsite.h), at most one per site atom; 0 / NULL: none. */
    int32_t vsite_count;
    vkmd_vsite *vsites;

    /* CHARMM terms (zero counts and NULL arrays for AMBER force fields). */
    int32_t urey_bradley_count;
    vkmd_bond *urey_bradleys; /* not bonds: no constraints, no molecule graph */
    int32_t improper_harmonic_count;
    vkmd_improper_harmonic *impropers_harmonic;
    int32_t cmap_count;
    vkmd_cmap *cmaps;
    int32_t cmap_map_count;
    vkmd_cmap_map *cmap_maps;
    /* 1-4 LJ tables ([lj_type_count^2], symmetric, like lj_a / lj_b); NULL:
     * 1-4 pairs use lj_a / lj_b. Either way divided by the pair's scnb. */
    double *lj14_a;
    double *lj14_b;

    /* Generalized Born parameters from a prmtop's RADII and SCREEN sections
     * (what tleap's `set default PBRadii` wrote): intrinsic radii and
     * screening factors, both NULL and gb_params_present 0 unless the file
     * has both sections (all-zero radii still count as present; the GB
     * reference refuses them). gb_radius_set is the RADIUS_SET text, e.g.
     * "modified Bondi radii (mbondi)", "" when absent. */
    int32_t gb_params_present;
    double *gb_radius;      /* [atom_count] A */
    double *gb_screen;      /* [atom_count] dimensionless */
    char gb_radius_set[81]; /* NUL-terminated */

    double *positions;  /* [3 * atom_count] A, NULL until coordinates are loaded */
    double *velocities; /* [3 * atom_count] A/fs, NULL if none */
    vkmd_box box;
} vkmd_system;

/* Frees everything the system owns and zeroes it. Safe on a zeroed struct. */
void vkmd_system_destroy(vkmd_system *sys);

/* Sorts and de-duplicates exclusions (i < j enforced) and checks every index
 * is in range; also checks bonded indices. Readers call it last. */
vkmd_result vkmd_system_finalize(vkmd_system *sys, const char *source);

/* Total charge in e. */
double vkmd_system_net_charge(const vkmd_system *sys);

/* 1 if (i, j) is excluded (binary search in the sorted exclusion list). */
int vkmd_system_is_excluded(const vkmd_system *sys, int32_t i, int32_t j);

/* Checks that coordinates exist and, if periodic, that every box edge is at
 * least 2 * cutoff_a (minimum-image convention). `source` names the file. */
vkmd_result vkmd_system_check_coordinates(const vkmd_system *sys, double cutoff_a,
                                          const char *source);

#endif
