/* Shared by tests/test_ref_uff_lbfgs.c and tests/test_gpu_uff_lbfgs.c: the
 * starts of the L-BFGS comparison with RDKit and RDKit's outcome from each
 * (tests/data/uff/lbfgs_rdkit.txt, written by
 * tests/oracles/uff_lbfgs_rdkit.py):
 *   - every record of tests/data/uff/molecules.sdf at its coordinates, plus
 *     4 perturbed starts per record (seed 11, 0.1 A) whose minima count as
 *     "other minima RDKit reaches";
 *   - 64 xylitol replicas (seed 7, 0.1 A).
 * A vkmd minimum "matches" when within TOL_LBFGS_RDKIT_ENERGY_ABS of
 * RDKit's minimum from the same start; else it is "another minimum" when
 * within that of a minimum RDKit reached from any start of the same
 * molecule; else, when RDKit's own end point from that start is no
 * minimum (its largest gradient component above LB_RDKIT_STALLED: RDKit's
 * BFGS reports convergence when its line search stalls, as it does on
 * trimethylphosphine), the vkmd energy must be lower than RDKit's, with a
 * small gradient; else it fails. */
#ifndef VKMD_TEST_UFF_LBFGS_COMMON_H
#define VKMD_TEST_UFF_LBFGS_COMMON_H

#include "testlib.h"
#include "tolerance.h"
#include "io/uff_load.h"
#include "system/fire_settings.h"
#include "system/uff_molecule.h"
#include "system/uff_terms.h"
#include "system/uff_typing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LB_MAX_RECORDS  64
#define LB_REC_EXTRA    4
#define LB_REC_SEED     11
#define LB_XYL_SEED     7
#define LB_XYL_REPLICAS 64
#define LB_AMPLITUDE    0.1

typedef struct lb_rdkit_run {
    int iterations;
    double e_default, e_tight;
    double gmax_tight; /* RDKit's largest |gradient component| at e_tight, kcal/mol/A */
} lb_rdkit_run;

typedef struct lb_data {
    int records;
    lb_rdkit_run rec[LB_MAX_RECORDS], rec_extra[LB_MAX_RECORDS][LB_REC_EXTRA];
    lb_rdkit_run xyl[LB_XYL_REPLICAS];
} lb_data;

static int lb_read(lb_data *d)
{
    const char *path = VKMD_TEST_DATA_DIR "/uff/lbfgs_rdkit.txt";
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 0;
    }
    memset(d, 0, sizeof *d);
    char line[512], kind[32];
    int ok = 1, idx, start;
    lb_rdkit_run r;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        if (sscanf(line, "%31s %d %d %d %lf %lf %lf", kind, &idx, &start, &r.iterations,
                   &r.e_default, &r.e_tight, &r.gmax_tight) != 7) {
            ok = 0;
            break;
        }
        if (!strcmp(kind, "record") && idx < LB_MAX_RECORDS) {
            d->rec[idx] = r;
            d->records = idx + 1 > d->records ? idx + 1 : d->records;
        } else if (!strcmp(kind, "record_perturbed") && idx < LB_MAX_RECORDS &&
                   start < LB_REC_EXTRA) {
            d->rec_extra[idx][start] = r;
        } else if (!strcmp(kind, "xylitol") && idx < LB_XYL_REPLICAS) {
            d->xyl[idx] = r;
        } else {
            ok = 0;
            break;
        }
    }
    fclose(f);
    return ok && d->records > 0;
}

#define LB_RDKIT_STALLED 1e-2 /* kcal/mol/A */
#define LB_OURS_MINIMUM  1e-2 /* kcal/mol/A: our max |F| at a minimum */

/* 0: matches RDKit from the same start; 1: another minimum RDKit reaches
 * from some start (`others`, n_others); 2: RDKit stalled away from a
 * minimum and vkmd went lower, to a point with max |F| `fmax` below
 * LB_OURS_MINIMUM; -1: none of these. */
static int lb_classify(double e, double fmax, const lb_rdkit_run *same, const lb_rdkit_run *others,
                       int n_others)
{
    if (fabs(e - same->e_tight) <= TOL_LBFGS_RDKIT_ENERGY_ABS)
        return 0;
    for (int i = 0; i < n_others; ++i)
        if (fabs(e - others[i].e_tight) <= TOL_LBFGS_RDKIT_ENERGY_ABS)
            return 1;
    if (same->gmax_tight > LB_RDKIT_STALLED && e < same->e_tight && fmax < LB_OURS_MINIMUM)
        return 2;
    return -1;
}

static int lb_cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static double lb_median(int *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, lb_cmp_int);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
