/* A small vacuum system of 4- and 5-site waters for the virtual-site tests
 * (tests/test_ref_vsite.c, tests/test_gpu_vsite.c): TIP4P-Ew and TIP5P
 * waters as tleap writes them (O-H, H-H and O-EP bonds, an H-O-H angle, all
 * intramolecular pairs excluded, massless extra points), on a jittered grid
 * with random orientations, so the frames come from
 * vkmd_vsite_from_amber_waters exactly as for a prmtop. Header-only. */
#ifndef VKMD_TESTS_VSITE_TESTSYS_H
#define VKMD_TESTS_VSITE_TESTSYS_H

#include "system/system.h"
#include "system/vsite.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define VSITE_D_OH   0.9572
#define VSITE_THETA  (104.52 * M_PI / 180.0)
#define VSITE_D_OE4  0.125 /* TIP4P-Ew O-M, A */
#define VSITE_D_OE5  0.70  /* TIP5P O-L, A */
#define VSITE_GRID_A 3.1   /* water spacing, A */

static uint64_t vsite_rng = 0x2545f4914f6cdd1dull;

static inline double vsite_uniform(void)
{
    vsite_rng ^= vsite_rng << 13;
    vsite_rng ^= vsite_rng >> 7;
    vsite_rng ^= vsite_rng << 17;
    return (double)(vsite_rng >> 11) / 9007199254740992.0;
}

/* n4 TIP4P-Ew then n5 TIP5P waters; 0 on success. */
static inline int vsite_testsys_build(vkmd_system *sys, int n4, int n5)
{
    memset(sys, 0, sizeof *sys);
    const int nw = n4 + n5, natom = 4 * n4 + 5 * n5;
    sys->atom_count = natom;
    sys->atoms = calloc((size_t)natom, sizeof *sys->atoms);
    sys->positions = calloc(3 * (size_t)natom, sizeof *sys->positions);
    sys->bonds = calloc((size_t)nw * 5, sizeof *sys->bonds);
    sys->angles = calloc((size_t)nw, sizeof *sys->angles);
    sys->exclusions = calloc((size_t)nw * 10, sizeof *sys->exclusions);
    sys->waters = calloc((size_t)nw, sizeof *sys->waters); /* rigid: O, H1, H2 */
    /* LJ types: 0 TIP4P-Ew O, 1 TIP5P O, 2 none (H, EP) */
    static const double sigma[3] = {3.16435, 3.12, 1.0}, eps[3] = {0.16275, 0.16, 0.0};
    sys->lj_type_count = 3;
    sys->lj_a = calloc(9, sizeof *sys->lj_a);
    sys->lj_b = calloc(9, sizeof *sys->lj_b);
    for (int t = 0; t < 3; ++t)
        for (int u = 0; u < 3; ++u) {
            const double s = 0.5 * (sigma[t] + sigma[u]), e = sqrt(eps[t] * eps[u]);
            sys->lj_a[3 * t + u] = 4 * e * pow(s, 12);
            sys->lj_b[3 * t + u] = 4 * e * pow(s, 6);
        }
    const int side = (int)ceil(cbrt((double)nw));
    int a = 0;
    for (int w = 0; w < nw; ++w) {
        const int five = w >= n4, nep = five ? 2 : 1;
        const double q_h = five ? 0.241 : 0.52422, d_oe = five ? VSITE_D_OE5 : VSITE_D_OE4;
        const int o = a;
        static const char *const names[5] = {"O", "H1", "H2", "EP1", "EP2"};
        for (int k = 0; k < 3 + nep; ++k) {
            vkmd_atom *at = &sys->atoms[o + k];
            snprintf(at->name, sizeof at->name, "%s", names[k]);
            snprintf(at->res_name, sizeof at->res_name, "WAT");
            at->res_index = w;
            at->element = k == 0 ? 8 : k < 3 ? 1 : 0;
            at->mass = k == 0 ? 15.999 : k < 3 ? 1.008 : 0.0;
            at->charge = k == 0 ? 0.0 : k < 3 ? q_h : -2 * q_h / nep;
            at->lj_type = k == 0 ? (five ? 1 : 0) : 2;
        }
        /* a random orthonormal frame (e1, e2, e3) */
        double e1[3], e2[3], e3[3], n;
        do {
            for (int c = 0; c < 3; ++c)
                e1[c] = 2 * vsite_uniform() - 1, e2[c] = 2 * vsite_uniform() - 1;
            n = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
        } while (n < 0.2);
        for (int c = 0; c < 3; ++c)
            e1[c] /= n;
        const double d = e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2];
        for (int c = 0; c < 3; ++c)
            e2[c] -= d * e1[c];
        n = sqrt(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]);
        for (int c = 0; c < 3; ++c)
            e2[c] /= n;
        e3[0] = e1[1] * e2[2] - e1[2] * e2[1];
        e3[1] = e1[2] * e2[0] - e1[0] * e2[2];
        e3[2] = e1[0] * e2[1] - e1[1] * e2[0];
        const int gx = w % side, gy = (w / side) % side, gz = w / (side * side);
        /* slightly flexible geometry: bond lengths and angle off their r0 */
        const double dh1 = VSITE_D_OH * (1 + 0.02 * (vsite_uniform() - 0.5));
        const double dh2 = VSITE_D_OH * (1 + 0.02 * (vsite_uniform() - 0.5));
        const double half = 0.5 * VSITE_THETA * (1 + 0.02 * (vsite_uniform() - 0.5));
        for (int c = 0; c < 3; ++c) {
            const double x0 = VSITE_GRID_A * (c == 0   ? gx
                                              : c == 1 ? gy
                                                       : gz) +
                              0.3 * (vsite_uniform() - 0.5);
            sys->positions[3 * o + c] = x0;
            sys->positions[3 * (o + 1) + c] = x0 + dh1 * (cos(half) * e1[c] + sin(half) * e2[c]);
            sys->positions[3 * (o + 2) + c] = x0 + dh2 * (cos(half) * e1[c] - sin(half) * e2[c]);
            for (int k = 0; k < nep; ++k) /* rough; the sites are rebuilt */
                sys->positions[3 * (o + 3 + k) + c] = x0 - 0.5 * e1[c] + (k ? 0.4 : -0.4) * e3[c];
        }
        const double d_hh = 2 * VSITE_D_OH * sin(0.5 * VSITE_THETA);
        vkmd_bond *b = &sys->bonds[sys->bond_count];
        b[0] = (vkmd_bond){o, o + 1, 553.0, VSITE_D_OH};
        b[1] = (vkmd_bond){o, o + 2, 553.0, VSITE_D_OH};
        b[2] = (vkmd_bond){o + 1, o + 2, 553.0, d_hh};
        sys->bond_count += 3;
        for (int k = 0; k < nep; ++k)
            sys->bonds[sys->bond_count++] = (vkmd_bond){o, o + 3 + k, 553.0, d_oe};
        sys->angles[sys->angle_count++] = (vkmd_angle){o + 1, o, o + 2, 100.0, VSITE_THETA};
        for (int i = 0; i < 3 + nep; ++i)
            for (int j = i + 1; j < 3 + nep; ++j)
                sys->exclusions[sys->exclusion_count++] = (vkmd_pair){o + i, o + j};
        sys->waters[sys->water_count++] = (vkmd_water){o, o + 1, o + 2};
        a += 3 + nep;
    }
    if (vkmd_system_finalize(sys, "vsite test system") != VKMD_OK)
        return 1;
    return vkmd_vsite_from_amber_waters(sys, "vsite test system") != VKMD_OK;
}

#endif
