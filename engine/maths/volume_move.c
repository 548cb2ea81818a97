/* Monte Carlo volume move maths (see volume_move.h). */
#include "maths/volume_move.h"

#include <math.h>

void vkmd_volume_move_scale(const vkmd_system *sys, const vkmd_molecules *mol,
                            const double scale[3], double *positions)
{
    for (int32_t m = 0; m < mol->count; ++m) {
        double c[3] = {0, 0, 0}, mass = 0;
        for (int32_t k = mol->first[m]; k < mol->first[m + 1]; ++k) {
            const int32_t a = mol->atoms[k];
            const double w = sys->atoms[a].mass;
            mass += w;
            for (int d = 0; d < 3; ++d)
                c[d] += w * positions[3 * a + d];
        }
        if (!(mass > 0))
            continue;
        double shift[3];
        for (int d = 0; d < 3; ++d)
            shift[d] = c[d] / mass * (scale[d] - 1.0);
        for (int32_t k = mol->first[m]; k < mol->first[m + 1]; ++k) {
            const int32_t a = mol->atoms[k];
            for (int d = 0; d < 3; ++d)
                positions[3 * a + d] += shift[d];
        }
    }
}

double vkmd_volume_move_exponent(double du, double p, double v_old, double v_new,
                                 int64_t n_molecules, double kt)
{
    const double w = du + p * (v_new - v_old) - (double)n_molecules * kt * log(v_new / v_old);
    return w / kt;
}
