/* Non-bonded settings shared by the CPU reference and the GPU passes, and the
 * per-term energy breakdown both report.
 *
 * Zero means default for every field of vkmd_ff_settings; call
 * vkmd_ff_settings_resolve() to turn zeros into the values actually used
 * (chosen from the Ewald tolerance the way OpenMM does). */
#ifndef VKMD_SYSTEM_FF_SETTINGS_H
#define VKMD_SYSTEM_FF_SETTINGS_H

#include "core/result.h"
#include "system/gb_settings.h"
#include "system/system.h"

/* Coulomb constants in kcal/mol A e^-2. */
/* CODATA 2018, as OpenMM: 138.935457644382 kJ/mol nm e^-2 in kcal/mol A e^-2. */
#define VKMD_COULOMB_K_OPENMM   (138.935457644382 * 10.0 / 4.184)
#define VKMD_COULOMB_K_AMBER    332.0522173 /* pmemd: 18.2223^2 */
#define VKMD_AMBER_CHARGE_SCALE 18.2223     /* prmtop charge units per e */

typedef enum vkmd_coulomb_constant {
    VKMD_COULOMB_OPENMM = 0, /* default */
    VKMD_COULOMB_AMBER = 1
} vkmd_coulomb_constant;

#define VKMD_LJ_FP32        0
#define VKMD_LJ_FP16        1
#define VKMD_LJ_FP16_POWERS 2

#define VKMD_FF_CUTOFF_A 9.0 /* the default non-bonded cutoff, A */

typedef struct vkmd_ff_settings {
    double cutoff_a;               /* 9.0 A; ignored for non-periodic systems (no cutoff) */
    double ewald_tolerance;        /* 5e-4 */
    double ewald_alpha;            /* sqrt(-ln(2 tol)) / cutoff, 1/A */
    int pme_grid[3];               /* OpenMM's formula, ceil(2 alpha L / (3 tol^(1/5))), min 6,
                                      rounded up to 2^a 3^b 5^c 7^d (see below) */
    int pme_order;                 /* 5 (B-spline order, 3..12) */
    int no_dispersion_correction;  /* 0: long-range LJ correction on (like OpenMM) */
    vkmd_coulomb_constant coulomb; /* OpenMM (CODATA 2018) */
    int openmm_reference_grid;     /* 0: default grid rounded up to FFT-friendly sizes, as
                                      OpenMM's GPU platforms do; 1: the unrounded size of
                                      OpenMM's Reference platform (e.g. 17^3 for water:216) */
    int net_charge_correction;     /* 0: off, as OpenMM 7.7; 1: add -k pi Q^2 / (2 V alpha^2) for
                                      a non-neutral periodic system (as AMBER pmemd, GROMACS) */
    int nonbonded_fp16;            /* LJ pair math on the device (docs/PRECISION.md), for
                                      pairs at r >= fp16_min_r_a: VKMD_LJ_FP32 (0), or
                                      VKMD_LJ_FP16 (fp16 parameters and arithmetic) or
                                      VKMD_LJ_FP16_POWERS (fp16 powers of sigma^2/r^2, fp32
                                      otherwise); the fp16 forms need shaderFloat16 */
    double fp16_min_r_a;           /* 0: every pair in fp16 (with nonbonded_fp16) */
    int positions;                 /* device position representation, VKMD_POSITIONS_* of
                                      shaders/common/vkmd_layout.h: 0 fp32, 1 split-float,
                                      2 split-int (docs/PRECISION.md) */
    vkmd_gb_settings gb;           /* generalized Born implicit solvent (system/gb_settings.h);
                                      model VKMD_GB_NONE (0): none. Only for systems without a
                                      box; the non-bonded pairs stay plain Coulomb over all
                                      pairs (gb.cutoff_a cuts the GB sums alone) */
} vkmd_ff_settings;

/* Fills defaults into `s` for `sys` and validates what was given (cutoff > 0,
 * alpha > 0, grid >= order, 3 <= order <= 12, box >= 2 cutoff). */
vkmd_result vkmd_ff_settings_resolve(vkmd_ff_settings *s, const vkmd_system *sys);

/* Coulomb constant selected by the settings, kcal/mol A e^-2. */
double vkmd_ff_coulomb_k(const vkmd_ff_settings *s);

/* Smallest n' >= n whose prime factors are all 2, 3, 5 or 7. */
int vkmd_ff_fft_size(int n);

/* Energies in kcal/mol. Aggregates: lj includes lj14 and lj_dispersion;
 * coulomb includes every coulomb_* part; dihedral includes impropers. */
typedef struct vkmd_energy {
    double bond;
    double angle;
    double dihedral;           /* propers + impropers */
    double improper;           /* the improper part alone (informational) */
    double urey_bradley;       /* CHARMM Urey-Bradley 1-3 terms */
    double improper_harmonic;  /* CHARMM harmonic impropers (not in dihedral) */
    double cmap;               /* CMAP correction maps */
    double lj;                 /* lj_pair + lj14 + lj_dispersion */
    double lj_pair;            /* LJ within the cutoff, exclusions removed */
    double lj14;               /* scaled 1-4 LJ */
    double lj_dispersion;      /* long-range correction */
    double coulomb;            /* sum of the coulomb_* parts below */
    double coulomb_real;       /* erfc(alpha r)/r within the cutoff (plain 1/r without a box) */
    double coulomb_recip;      /* PME reciprocal space */
    double coulomb_self;       /* -k alpha/sqrt(pi) sum q^2 */
    double coulomb_excl;       /* -k q_i q_j erf(alpha r)/r over excluded pairs */
    double coulomb_net_charge; /* -k pi Q^2 / (2 V alpha^2) */
    double coulomb14;          /* scaled 1-4 Coulomb */
    double restraint;          /* positional restraints (system/restraints.h), 0 without */
    double gb;                 /* generalized Born polar solvation (self + pairs), 0 without */
    double nonpolar;           /* ACE nonpolar solvation (--gbsa ace), 0 without */
    double total;
} vkmd_energy;

/* Recomputes the aggregates (dihedral excepted) and the total from the parts. */
void vkmd_energy_sum(vkmd_energy *e);

/* An LJ option's value (--nonbonded): "fp32", "fp16" or "fp16-powers" for
 * every pair, or either fp16 form with ":R" (pairs at r >= R A; fp32
 * closer), into *out_lj (VKMD_LJ_*) and *out_min_r_a (0 without ":R").
 * Errors: VKMD_ERROR_INVALID_ARGUMENT naming `opt`. */
vkmd_result vkmd_lj_option_parse(const char *opt, const char *s, int *out_lj, double *out_min_r_a);

#endif
