/* Pairs within a cutoff (maths/pair_count.h) against a direct double loop
 * over every pair on a water box with its excluded pairs, through the cell
 * list (cutoffs giving 3 or more cells per edge) and the all-pairs path, with
 * atoms moved out of the box by whole box lengths. */
#include "io/load.h"
#include "maths/pair_count.h"
#include "testlib.h"

#include <math.h>
#include <stdlib.h>

static double direct(const vkmd_system *sys, const double *x, double cutoff)
{
    double n = 0;
    for (int32_t i = 0; i < sys->atom_count; ++i)
        for (int32_t j = i + 1; j < sys->atom_count; ++j) {
            double r2 = 0;
            for (int c = 0; c < 3; ++c) {
                double d = x[3 * j + c] - x[3 * i + c];
                d -= sys->box.len[c] * floor(d / sys->box.len[c] + 0.5);
                r2 += d * d;
            }
            n += r2 < cutoff * cutoff;
        }
    for (int32_t e = 0; e < sys->exclusion_count; ++e) {
        const int32_t i = sys->exclusions[e].i, j = sys->exclusions[e].j;
        double r2 = 0;
        for (int c = 0; c < 3; ++c) {
            double d = x[3 * j + c] - x[3 * i + c];
            d -= sys->box.len[c] * floor(d / sys->box.len[c] + 0.5);
            r2 += d * d;
        }
        n -= r2 < cutoff * cutoff;
    }
    return n;
}

int main(void)
{
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load("water:216", NULL, &sys));
    CHECK(sys.box.periodic && sys.exclusion_count > 0);
    if (!sys.positions)
        return test_finish("test_maths_pair_count");
    /* some atoms an image or two away */
    for (int32_t i = 0; i < sys.atom_count; i += 7)
        for (int c = 0; c < 3; ++c)
            sys.positions[3 * i + c] += ((i + c) % 3 - 1) * 2.0 * sys.box.len[c];
    const double cutoffs[4] = {3.0, 4.5, 6.0, 9.0};
    for (int k = 0; k < 4; ++k) {
        const double got = vkmd_count_pairs_within(&sys, sys.positions, cutoffs[k]);
        const double want = direct(&sys, sys.positions, cutoffs[k]);
        printf("cutoff %.1f A (%d cells per edge): %.0f pairs, direct loop %.0f\n", cutoffs[k],
               (int)floor(sys.box.len[0] / cutoffs[k]), got, want);
        CHECK(want > 0 && got == want);
    }
    vkmd_system_destroy(&sys);
    return test_finish("test_maths_pair_count");
}
