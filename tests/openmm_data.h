/* OpenMM reference data for the external check of the CPU reference force
 * field: reads the NAME.openmm.txt files written by tests/oracles/openmm_reference.py
 * (the script's docstring defines every key) and compares vkmd_ref_compute on
 * NAME.prmtop/NAME.inpcrd with them. Shared by tests/test_ref_openmm.c
 * (committed systems) and tests/test_ref_openmm_generated.c (built at test
 * time).
 *
 * Units as vkmd: kcal/mol, A, kcal/mol/A, e.
 *
 * Surprise worth knowing: OpenMM 7.7 leaves out the neutralizing-background
 * energy -k pi Q^2 / (2 V alpha^2) of a non-neutral periodic system (a lone ion
 * in a box gives the Madelung energy minus exactly this term). The comparison
 * checks vkmd_ewald_net_charge_energy against the value the data file records and
 * compares everything else without vkmd's coulomb_net_charge (which
 * vkmd_ref_compute leaves at 0, as OpenMM). */
#ifndef VKMD_TESTS_OPENMM_DATA_H
#define VKMD_TESTS_OPENMM_DATA_H

#include "core/result.h"

#define OPENMM_DATA_MAX_TERMS 32

typedef struct openmm_term {
    char name[40];
    double value; /* kcal/mol */
} openmm_term;

typedef struct openmm_data {
    char system[64];
    char header[160]; /* first comment line: OpenMM version, platform, units */
    int atom_count;
    int periodic;              /* 0: vacuum, no cutoff */
    double box_a[3];           /* periodic only: edge lengths |a| |b| |c| */
    double box_angles_deg[3];  /* alpha beta gamma (key box_angles_deg; 90 when absent) */
    double cutoff_a;           /* periodic only */
    double ewald_tolerance;    /* periodic only */
    double ewald_alpha_per_a;  /* alpha OpenMM used, 1/A (periodic only) */
    int pme_grid[3];           /* grid OpenMM used (periodic only) */
    int pme_order;             /* periodic only */
    int dispersion_correction; /* 1 if the long-range LJ correction is on */
    double net_charge;         /* e, from the charges OpenMM used */
    int term_count;
    openmm_term terms[OPENMM_DATA_MAX_TERMS];
    double *forces; /* [3 * atom_count] kcal/mol/A, owned */
} openmm_data;

/* Parses `path` into `out` (overwritten; free with openmm_data_free).
 * VKMD_ERROR_IO if it cannot be read, VKMD_ERROR_PARSE naming path:line and
 * what was expected for anything malformed or missing. */
vkmd_result openmm_data_load(const char *path, openmm_data *out);

/* Frees the forces and zeroes `d`. Safe on a zeroed struct. */
void openmm_data_free(openmm_data *d);

/* Looks up an energy term by name; returns 1 and stores it in *out if present. */
int openmm_data_energy(const openmm_data *d, const char *name, double *out);

/* The whole check of one system: loads DIR/NAME.prmtop + DIR/NAME.inpcrd and
 * DIR/NAME.openmm.txt, runs vkmd_ref_compute with the cutoff, alpha, grid and
 * order OpenMM used, compares every energy term and the forces, and checks
 * that vkmd's default settings give OpenMM's alpha and grid. Prints every
 * figure; failures are counted in test_failures. */
void openmm_check_system(const char *dir, const char *name);

#endif
