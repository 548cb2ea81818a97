/* Volume and mass density of a periodic box, shared by the simulation's
 * reports, the barostat and the run summaries. No Vulkan. */
#ifndef VKMD_MATHS_DENSITY_H
#define VKMD_MATHS_DENSITY_H

#include "system/system.h"

/* Volume of an orthorhombic box with edges box[3] (A), in A^3. */
double vkmd_box_volume(const double box[3]);

/* Total mass of the system's atoms, amu (after hydrogen mass repartitioning
 * the total is unchanged). */
double vkmd_system_mass(const vkmd_system *sys);

/* Mass density in g/cm^3 of `mass_amu` in the box box[3] (A); 0 when the
 * volume is not positive. */
double vkmd_density_g_cm3(double mass_amu, const double box[3]);

#endif
