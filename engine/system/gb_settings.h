/* Generalized Born implicit solvent settings: the model (AMBER igb 1, 2, 5,
 * 7, 8 as OpenMM 7.7 builds them from a prmtop), dielectrics, salt, the ACE
 * nonpolar term and an optional non-periodic cutoff, with the model names a
 * command line takes. Zero means default in every field; resolve before use.
 *
 * Units: A, kcal/mol, K, mol/L. */
#ifndef VKMD_SYSTEM_GB_SETTINGS_H
#define VKMD_SYSTEM_GB_SETTINGS_H

#include "core/result.h"

typedef enum vkmd_gb_model {
    VKMD_GB_NONE = 0, /* no implicit solvent */
    VKMD_GB_HCT,      /* igb 1, Hawkins-Cramer-Truhlar; mbondi radii */
    VKMD_GB_OBC1,     /* igb 2, Onufriev-Bashford-Case I; mbondi2 */
    VKMD_GB_OBC2,     /* igb 5, OBC II; mbondi2 */
    VKMD_GB_GBN,      /* igb 7, GBn (neck); bondi */
    VKMD_GB_GBN2,     /* igb 8, GBn2 (neck, per-element alpha/beta/gamma); mbondi3 */
    VKMD_GB_MODEL_COUNT
} vkmd_gb_model;

/* OpenMM's ACE default: 2.25936 kJ/mol/nm^2 (AMBER's surften 0.0054
 * kcal/mol/A^2), probe radius 0.14 nm. */
#define VKMD_GB_SURFACE_TENSION_DEFAULT (2.25936 / 418.4) /* kcal/mol/A^2 */
#define VKMD_GB_PROBE_RADIUS_DEFAULT    1.4               /* A */

typedef struct vkmd_gb_settings {
    vkmd_gb_model model;
    double solute_dielectric;       /* default 1 */
    double solvent_dielectric;      /* default 78.5 */
    double salt_molar;              /* mol/L, default 0 (no Debye-Hueckel screening) */
    double temperature_k;           /* for kappa only, default 298.15 (OpenMM createSystem's) */
    int nonpolar;                   /* 1: add the ACE nonpolar term; default 0 */
    double surface_tension_kcal_a2; /* ACE, default VKMD_GB_SURFACE_TENSION_DEFAULT */
    double probe_radius_a;          /* ACE, default VKMD_GB_PROBE_RADIUS_DEFAULT */
    double cutoff_a;                /* default 0: all pairs; > 0: OpenMM's CutoffNonPeriodic */
} vkmd_gb_settings;

/* `name` (hct|obc1|obc2|gbn|gbn2, case-insensitive; also the igb numbers
 * 1, 2, 5, 7, 8) into *out. VKMD_ERROR_INVALID_ARGUMENT naming the
 * accepted names otherwise. */
vkmd_result vkmd_gb_model_parse(const char *name, vkmd_gb_model *out);

/* "hct", "obc1", ... ("none" for VKMD_GB_NONE, "?" out of range). */
const char *vkmd_gb_model_name(vkmd_gb_model model);

/* AMBER's igb number of the model (0 for none). */
int vkmd_gb_model_igb(vkmd_gb_model model);

/* The radius set AMBER pairs with the model (ParmEd's changeRadii names:
 * "mbondi", "mbondi2", "bondi", "mbondi3"); "" for none. */
const char *vkmd_gb_model_radius_set(vkmd_gb_model model);

/* Defaults filled in; VKMD_ERROR_INVALID_ARGUMENT for an unknown model, a
 * dielectric <= 0, salt, temperature, cutoff, tension or probe < 0. */
vkmd_result vkmd_gb_settings_resolve(const vkmd_gb_settings *in, vkmd_gb_settings *out);

/* Debye-Hueckel kappa (1/A) of resolved settings, as OpenMM's
 * AmberPrmtopFile.createSystem computes it from implicitSolventSaltConc:
 * 0.73 * 50.33355 * sqrt(c / (eps_solvent T)) (AMBER's conversion factor
 * and its 0.73 for the ions' exclusion). */
double vkmd_gb_kappa_per_a(const vkmd_gb_settings *resolved);

#endif
