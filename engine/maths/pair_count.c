/* Pairs within a cutoff by a cell list (see pair_count.h). */
#include "maths/pair_count.h"

#include <math.h>
#include <stdlib.h>

static double tri_d2(const vkmd_box *box, const double *x, int32_t i, int32_t j)
{
    double d[3] = {x[3 * j] - x[3 * i], x[3 * j + 1] - x[3 * i + 1], x[3 * j + 2] - x[3 * i + 2]};
    vkmd_box_min_image(box, d);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

double vkmd_count_pairs_within(const vkmd_system *sys, const double *x, double cutoff_a)
{
    const int32_t n = sys->atom_count;
    const double *len = sys->box.len, c2 = cutoff_a * cutoff_a;
    int nc[3], all = 0;
    for (int d = 0; d < 3; ++d) {
        nc[d] = (int)floor(len[d] / cutoff_a);
        all |= nc[d] < 3;
    }
    double count = 0;
#define MIN_IMAGE_D2(i, j)                                                                         \
    ({                                                                                             \
        double r2_ = 0;                                                                            \
        for (int c_ = 0; c_ < 3; ++c_) {                                                           \
            double d_ = x[3 * (j) + c_] - x[3 * (i) + c_];                                         \
            d_ -= len[c_] * floor(d_ / len[c_] + 0.5);                                             \
            r2_ += d_ * d_;                                                                        \
        }                                                                                          \
        r2_;                                                                                       \
    })
    if (sys->box.triclinic) {
        /* Any cell: every pair through the box's minimum image (the
         * benchmark's figure only; O(N^2)). */
        for (int32_t i = 0; i < n; ++i)
            for (int32_t j = i + 1; j < n; ++j)
                count += tri_d2(&sys->box, x, i, j) < c2;
        for (int32_t e = 0; e < sys->exclusion_count; ++e)
            count -= tri_d2(&sys->box, x, sys->exclusions[e].i, sys->exclusions[e].j) < c2;
        return count;
    }
    if (all) {
        for (int32_t i = 0; i < n; ++i)
            for (int32_t j = i + 1; j < n; ++j)
                count += MIN_IMAGE_D2(i, j) < c2;
    } else {
        const size_t cells = (size_t)nc[0] * nc[1] * nc[2];
        int32_t *head = malloc(sizeof *head * cells), *next = malloc(sizeof *next * (size_t)n);
        int *cell = malloc(sizeof *cell * 3 * (size_t)n);
        if (!head || !next || !cell) {
            free(head);
            free(next);
            free(cell);
            return -1;
        }
        for (size_t k = 0; k < cells; ++k)
            head[k] = -1;
        for (int32_t i = 0; i < n; ++i) {
            size_t key = 0;
            for (int d = 0; d < 3; ++d) {
                double w = x[3 * i + d] - len[d] * floor(x[3 * i + d] / len[d]);
                int c = (int)(w / len[d] * nc[d]);
                cell[3 * i + d] = c < 0 ? 0 : c >= nc[d] ? nc[d] - 1 : c;
                key = key * (size_t)nc[d] + (size_t)cell[3 * i + d];
            }
            next[i] = head[key];
            head[key] = i;
        }
        for (int32_t i = 0; i < n; ++i)
            for (int dx = -1; dx <= 1; ++dx)
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dz = -1; dz <= 1; ++dz) {
                        const int c[3] = {(cell[3 * i] + dx + nc[0]) % nc[0],
                                          (cell[3 * i + 1] + dy + nc[1]) % nc[1],
                                          (cell[3 * i + 2] + dz + nc[2]) % nc[2]};
                        const size_t key = ((size_t)c[0] * nc[1] + c[1]) * nc[2] + c[2];
                        for (int32_t j = head[key]; j >= 0; j = next[j])
                            if (j > i)
                                count += MIN_IMAGE_D2(i, j) < c2;
                    }
        free(head);
        free(next);
        free(cell);
    }
    for (int32_t e = 0; e < sys->exclusion_count; ++e)
        count -= MIN_IMAGE_D2(sys->exclusions[e].i, sys->exclusions[e].j) < c2;
#undef MIN_IMAGE_D2
    return count;
}
