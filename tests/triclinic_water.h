/* Water in any periodic cell for the triclinic tests (test_gpu_triclinic,
 * test_md_triclinic): molecules of a lattice water box (system/water_box.h)
 * whose oxygen falls in the brick [0, ax) x [0, by) x [0, cz) (a unit cell
 * of the lattice) are kept unless an atom comes within VKMD_WATER_BOX_MIN_CONTACT_A (1.9 A) of a
 * kept molecule under the cell's minimum image. Not equilibrated. */
#ifndef VKMD_TESTS_TRICLINIC_WATER_H
#define VKMD_TESTS_TRICLINIC_WATER_H

#include "testlib.h"
#include "system/water_box.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OCT_DEG 109.4712206344907

/* Every coordinate moved by up to +-0.03 A (xorshift from st). */
static inline void triclinic_jiggle(vkmd_system *sys, uint64_t st)
{
    for (int i = 0; i < 3 * sys->atom_count; ++i) {
        st ^= st >> 12;
        st ^= st << 25;
        st ^= st >> 27;
        double u = (double)((st * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
        sys->positions[i] += 0.06 * (u - 0.5);
    }
}

/* Water filling `box` (any cell) into `out` (zeroed by the caller). */
static inline void triclinic_water(const vkmd_box *box, vkmd_system *out)
{
    const double brick[3] = {box->vec[0][0], box->vec[1][1], box->vec[2][2]};
    const double edge = fmax(brick[0], fmax(brick[1], brick[2])) + 1.0;
    int32_t n = 8;
    while (vkmd_water_box_edge_a(n) < edge)
        n = n * 5 / 4 + 1;
    vkmd_system big = {0};
    CHECK_OK(vkmd_water_box_build(n, VKMD_WATER_BOX_DEFAULT_SEED, &big));
    double *kept = calloc(9 * (size_t)n, sizeof(double));
    int32_t count = 0;
    for (int32_t m = 0; m < n && big.positions; ++m) {
        const double *x = &big.positions[9 * m];
        int inside = 1;
        for (int d = 0; d < 3; ++d)
            inside = inside && x[d] >= 0 && x[d] < brick[d];
        for (int32_t k = 0; inside && k < count; ++k)
            for (int a = 0; a < 3 && inside; ++a)
                for (int b = 0; b < 3 && inside; ++b) {
                    double dv[3];
                    for (int d = 0; d < 3; ++d)
                        dv[d] = kept[9 * k + 3 * b + d] - x[3 * a + d];
                    vkmd_box_min_image(box, dv);
                    inside = dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2] >=
                             VKMD_WATER_BOX_MIN_CONTACT_A * VKMD_WATER_BOX_MIN_CONTACT_A;
                }
        if (inside)
            memcpy(&kept[9 * count++], x, 9 * sizeof(double));
    }
    vkmd_system_destroy(&big);
    CHECK_OK(vkmd_water_box_topology(count, out));
    if (out->positions)
        memcpy(out->positions, kept, 9 * (size_t)count * sizeof(double));
    out->box = *box;
    free(kept);
}

#endif
