/* Reference integrators (ref_md.h): velocity Verlet and Langevin middle
 * (BAOAB), kinetic energy and centre-of-mass motion, in double precision.
 *
 * Units: a = F / m * VKMD_ACCEL_PER_FORCE_MASS in A/fs^2 for F in kcal/mol/A
 * and m in amu. The Langevin noise amplitude per atom is
 *   c2 / sqrt(m),  c2 = sqrt(kB T (1 - c1^2) VKMD_ACCEL_PER_FORCE_MASS):
 * kB T / m is in kcal/mol/amu, and kcal/mol/amu times 4.184e-4 is A^2/fs^2,
 * so the velocity kick is in A/fs.
 *
 * A step costs one vkmd_ref_compute plus O(N) work and two O(N) scratch
 * arrays (the start positions and the masses); forces are computed on a
 * shallow copy of the system whose positions pointer is the step's. */
#include "core/philox.h"
#include "core/units.h"
#include "ref/ref.h"
#include "ref/ref_md.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Forces and energy at `pos` through the reference force field. */
static vkmd_result forces_at(const vkmd_system *sys, const vkmd_ff_settings *settings, double *pos,
                             double *forces, vkmd_energy *out_energy)
{
    vkmd_system view = *sys;
    view.positions = pos;
    vkmd_energy e;
    vkmd_result res = vkmd_ref_compute(&view, settings, &e, forces);
    if (res == VKMD_OK && out_energy)
        *out_energy = e;
    return res;
}

/* v += h * a for every atom with a mass; massless atoms do not move. */
static void kick(int32_t n, const double *inv_mass, const double *forces, double h, double *vel)
{
    for (int32_t i = 0; i < n; ++i) {
        const double s = h * inv_mass[i] * VKMD_ACCEL_PER_FORCE_MASS;
        for (int c = 0; c < 3; ++c)
            vel[3 * i + c] += s * forces[3 * i + c];
    }
}

static void drift(int32_t n, const double *vel, double h, double *pos)
{
    for (int32_t i = 0; i < 3 * n; ++i)
        pos[i] += h * vel[i];
}

vkmd_result ref_md_step(const vkmd_system *sys, const vkmd_ff_settings *settings,
                        const vkmd_constraint_set *set, const ref_md_params *p, uint64_t step,
                        double *pos, double *vel, double *forces, vkmd_energy *out_energy)
{
    const int32_t n = sys->atom_count;
    const double dt = p->dt_fs;
    if (!(dt > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "ref md: time step %g fs (must be > 0)", dt);
    if (p->integrator == REF_INTEGRATOR_LANGEVIN &&
        (!(p->temperature_k >= 0) || !(p->friction_per_ps >= 0)))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "ref md: Langevin temperature %g K and friction %g /ps (must be >= 0)",
                         p->temperature_k, p->friction_per_ps);
    if (p->integrator != REF_INTEGRATOR_VERLET && p->integrator != REF_INTEGRATOR_LANGEVIN)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "ref md: unknown integrator %d",
                         (int)p->integrator);

    vkmd_result res = VKMD_OK;
    double *start = malloc(((size_t)3 * n + 1) * sizeof *start);
    double *mass = malloc(((size_t)2 * n + 1) * sizeof *mass);
    if (!start || !mass) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "ref md: scratch for %d atoms", n);
        goto cleanup;
    }
    double *inv_mass = mass + n;
    for (int32_t i = 0; i < n; ++i) {
        mass[i] = sys->atoms[i].mass;
        inv_mass[i] = mass[i] > 0 ? 1.0 / mass[i] : 0.0;
    }
    memcpy(start, pos, (size_t)3 * n * sizeof *pos);
    const int constrained = set && set->constraint_count > 0;

    if (p->integrator == REF_INTEGRATOR_VERLET) {
        kick(n, inv_mass, forces, 0.5 * dt, vel);
        drift(n, vel, dt, pos);
        if (constrained)
            VKMD_TRY(vkmd_host_constraints_positions(set, mass, start, pos, vel, dt, p->tol));
        VKMD_TRY(forces_at(sys, settings, pos, forces, out_energy));
        kick(n, inv_mass, forces, 0.5 * dt, vel);
        if (constrained)
            VKMD_TRY(vkmd_host_constraints_velocities(set, mass, pos, vel, p->tol));
    } else {
        const double c1 = exp(-p->friction_per_ps / VKMD_FS_PER_PS * dt);
        const double c2 = sqrt(VKMD_BOLTZMANN_KCAL * p->temperature_k * (1 - c1 * c1) *
                               VKMD_ACCEL_PER_FORCE_MASS);
        kick(n, inv_mass, forces, dt, vel);
        if (constrained)
            VKMD_TRY(vkmd_host_constraints_velocities(set, mass, pos, vel, p->tol));
        drift(n, vel, 0.5 * dt, pos);
        for (int32_t i = 0; i < n; ++i) {
            double g[3];
            vkmd_philox_gauss3(p->seed, step, (uint32_t)i, 0, g);
            const double s = c2 * sqrt(inv_mass[i]);
            for (int c = 0; c < 3; ++c)
                vel[3 * i + c] = c1 * vel[3 * i + c] + s * g[c];
        }
        drift(n, vel, 0.5 * dt, pos);
        if (constrained) /* v += (x'c - x') / dt, as OpenMM's integrateLangevinMiddlePart3 */
            VKMD_TRY(vkmd_host_constraints_positions(set, mass, start, pos, vel, dt, p->tol));
        VKMD_TRY(forces_at(sys, settings, pos, forces, out_energy));
    }

cleanup:
    free(start);
    free(mass);
    return res;
}
