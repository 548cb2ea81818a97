/* Kinetic energy and centre-of-mass motion of host velocities (A/fs, masses
 * amu), shared by the simulation and the CPU reference. No Vulkan. */
#ifndef VKMD_MATHS_KINETIC_H
#define VKMD_MATHS_KINETIC_H

#include "system/system.h"

/* Kinetic energy in kcal/mol. */
double vkmd_kinetic_energy(const vkmd_system *sys, const double *vel);

/* Removes the centre-of-mass velocity. */
void vkmd_remove_com_velocity(const vkmd_system *sys, double *vel);

#endif
