/* Volume and mass density of a periodic box (maths/density.h). */
#include "maths/density.h"

#include "core/units.h"

double vkmd_box_volume(const double box[3])
{
    return box[0] * box[1] * box[2];
}

double vkmd_system_mass(const vkmd_system *sys)
{
    double m = 0;
    for (int32_t i = 0; i < sys->atom_count; ++i)
        m += sys->atoms[i].mass;
    return m;
}

double vkmd_density_g_cm3(double mass_amu, const double box[3])
{
    const double v = vkmd_box_volume(box);
    return v > 0 ? mass_amu / v * VKMD_G_CM3_PER_AMU_A3 : 0.0;
}
