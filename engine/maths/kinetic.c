/* Kinetic energy and centre-of-mass velocity (see kinetic.h). Massless
 * atoms (virtual sites) add no kinetic energy and keep zero velocity. */
#include "maths/kinetic.h"

#include "core/units.h"

double vkmd_kinetic_energy(const vkmd_system *sys, const double *vel)
{
    double twice = 0;
    for (int32_t i = 0; i < sys->atom_count; ++i) {
        const double *v = vel + 3 * i;
        twice += sys->atoms[i].mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    return 0.5 * twice * VKMD_KCAL_PER_AMU_A2_FS2;
}

void vkmd_remove_com_velocity(const vkmd_system *sys, double *vel)
{
    double p[3] = {0, 0, 0}, mt = 0;
    for (int32_t i = 0; i < sys->atom_count; ++i) {
        const double m = sys->atoms[i].mass;
        mt += m;
        for (int c = 0; c < 3; ++c)
            p[c] += m * vel[3 * i + c];
    }
    if (!(mt > 0))
        return;
    for (int c = 0; c < 3; ++c)
        p[c] /= mt;
    for (int32_t i = 0; i < sys->atom_count; ++i) {
        if (!(sys->atoms[i].mass > 0)) { /* virtual sites keep no velocity */
            vel[3 * i] = vel[3 * i + 1] = vel[3 * i + 2] = 0;
            continue;
        }
        for (int c = 0; c < 3; ++c)
            vel[3 * i + c] -= p[c];
    }
}
