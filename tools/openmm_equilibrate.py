#!/usr/bin/python3
"""The equilibration protocol of `vkmd equilibrate` (issue 19) in OpenMM: the
reference for its per-stage figures and final density (docs/VALIDATION.md).

On an AMBER prmtop + inpcrd, in vkmd's settings (tools/openmm_system.py:
PME, cutoff 9 A, Ewald tolerance 5e-4, dispersion correction, bonds to H
constrained, rigid water; Langevin middle, friction 1/ps, dt 2 fs):
  solute  atoms of --mask (default `!:WAT,HOH,Na+,Cl-,K+,NA,CL & !@H=`, the
          solute heavy atoms; ParmEd's AmberMask), restrained to the starting
          coordinates by E = k |r - r0|^2 (AMBER convention, no 1/2; minimum
          image), k = 10 kcal/mol/A^2;
  1 minimise  restraints on, up to 2000 iterations (OpenMM's L-BFGS; vkmd
          uses device FIRE);
  2 heat      constant volume, 20 ps: velocities start at 0 K and the bath is
          raised in 10 equal increments, 30, 60, ..., 300 K, 2 ps each;
          restraints on (k = 10);
  3 density   Monte Carlo barostat (isotropic, 1 bar, an attempt every 25
          steps), 300 K, 50 ps in 5 parts of 10 ps with k = 10 (1 - i/4),
          i = 0..4: 10, 7.5, 5, 2.5, 0;
  4 free      NPT as stage 3 without restraints, 50 ps; the final density
          is the mean over its second half (block-averaged standard error,
          tools/npt_stats.py).
--scale F multiplies every stage's length (--short: 0.2, e.g. for DHFR);
the numbers of heating increments and restraint parts stay.

Per stage (and per heating increment / restraint part) it reports the mean
and final temperature, the mean and final density, the restraint energy and
the solute's RMSD to the start: without fitting (what the restraints hold)
and after the best superposition (Kabsch). Writes PREFIX.csv (one row every
--sample-every steps: stage, part, time_ps, k, bath_K, temperature_K,
volume_A3, density_g_cm3, potential_kcal_mol, restraint_kcal_mol) and
PREFIX.json, and prints a table.

usage: /usr/bin/python3 tools/openmm_equilibrate.py SYSTEM.prmtop [--coords X.inpcrd] [--out PREFIX]
       [--scale F | --short] [--mask MASK] [--k 10] [--seed S] [--threads N]
"""
import argparse
import csv
import json
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npt_stats  # noqa: E402
from openmm_system import (mm, unit, load, platform_and_properties, total_mass_amu,  # noqa: E402
                           degrees_of_freedom, box_volume_a3, temperature_k, KJ_PER_KCAL,
                           CONSTRAINT_TOLERANCE, CUTOFF_NM, EWALD_TOLERANCE)

DEFAULT_MASK = '!:WAT,HOH,Na+,Cl-,K+,NA,CL & !@H='
# kcal/mol/A^2 -> kJ/mol/nm^2
KCAL_A2_TO_KJ_NM2 = KJ_PER_KCAL * 100.0
RESTRAINT_GROUP = 31


def select(prmtop, coords, mask):
    import parmed
    from parmed.amber.mask import AmberMask
    struct = parmed.load_file(prmtop, coords)
    return [i for i, on in enumerate(AmberMask(struct, mask).Selection()) if on]


def add_restraints(system, atoms, positions_nm):
    f = mm.CustomExternalForce('k*periodicdistance(x, y, z, x0, y0, z0)^2')
    f.addGlobalParameter('k', 0.0)  # kJ/mol/nm^2
    for p in ('x0', 'y0', 'z0'):
        f.addPerParticleParameter(p)
    for i in atoms:
        f.addParticle(i, [float(c) for c in positions_nm[i]])
    f.setForceGroup(RESTRAINT_GROUP)
    system.addForce(f)
    return f


def rmsd(a, b, fit):
    """RMSD between (n, 3) arrays; with fit, after removing the centroids and
    the best rotation (Kabsch)."""
    if fit:
        a = a - a.mean(axis=0)
        b = b - b.mean(axis=0)
        u, s, vt = np.linalg.svd(a.T @ b)
        d = np.sign(np.linalg.det(u @ vt))
        s[-1] *= d
        e = max(0.0, (a * a).sum() + (b * b).sum() - 2.0 * s.sum())
        return math.sqrt(e / len(a))
    return float(np.sqrt(((a - b) ** 2).sum(axis=1).mean()))


class Protocol:
    def __init__(self, a):
        self.a = a
        self.topology, self.system, positions, box = load(a.system, a.coords)
        self.coords = a.coords or a.system.rsplit('.', 1)[0] + '.inpcrd'
        self.solute = select(a.system, self.coords, a.mask)
        if not self.solute:
            raise SystemExit('openmm_equilibrate: mask %r selects no atom' % a.mask)
        pos_nm = np.array(positions.value_in_unit(unit.nanometer))
        self.ref_a = pos_nm[self.solute] * 10.0
        self.restraint = add_restraints(self.system, self.solute, pos_nm)
        self.barostat = mm.MonteCarloBarostat(1.0 * unit.bar, a.temperature * unit.kelvin, 25)
        self.barostat.setRandomNumberSeed(a.seed)
        self.integ = mm.LangevinMiddleIntegrator(0.0 * unit.kelvin, 1.0 / unit.picosecond,
                                                 a.dt * unit.femtoseconds)
        self.integ.setConstraintTolerance(CONSTRAINT_TOLERANCE)
        self.integ.setRandomNumberSeed(a.seed)
        self.platform, props = platform_and_properties(a.platform, a.threads)
        self.ctx = mm.Context(self.system, self.integ, self.platform, props)
        self.ctx.setPeriodicBoxVectors(*box)
        self.ctx.setPositions(positions)
        self.mass = total_mass_amu(self.system)
        self.dof = degrees_of_freedom(self.system)
        self.rows, self.stages, self.step, self.k = [], [], 0, 0.0
        self.bath = 0.0

    def set_k(self, k_kcal_a2):
        self.k = k_kcal_a2
        self.ctx.setParameter('k', k_kcal_a2 * KCAL_A2_TO_KJ_NM2)

    def set_bath(self, t):
        self.bath = t
        self.integ.setTemperature(t * unit.kelvin)

    def snapshot(self, stage, part):
        s = self.ctx.getState(getEnergy=True, getPositions=True)
        r = self.ctx.getState(getEnergy=True, groups={RESTRAINT_GROUP})
        v = box_volume_a3(s)
        pos = s.getPositions(asNumpy=True).value_in_unit(unit.angstrom)[self.solute]
        return {'stage': stage, 'part': part, 'step': self.step,
                'time_ps': self.step * self.a.dt / 1000.0, 'k': self.k, 'bath_K': self.bath,
                'temperature_K': temperature_k(s, self.dof), 'volume_A3': v,
                'density_g_cm3': self.mass / v * npt_stats.G_CM3_PER_AMU_A3,
                'potential_kcal_mol': s.getPotentialEnergy().value_in_unit(
                    unit.kilojoule_per_mole) / KJ_PER_KCAL,
                'restraint_kcal_mol': r.getPotentialEnergy().value_in_unit(
                    unit.kilojoule_per_mole) / KJ_PER_KCAL,
                'rmsd_a': rmsd(pos, self.ref_a, False), 'rmsd_fit_a': rmsd(pos, self.ref_a, True)}

    def run(self, stage, part, ps):
        """ps of dynamics in samples of --sample-every steps; returns the part's rows."""
        steps = max(1, int(round(ps * self.a.scale * 1000.0 / self.a.dt)))
        rows, done = [], 0
        while done < steps:
            n = min(self.a.sample_every, steps - done)
            self.integ.step(n)
            done += n
            self.step += n
            rows.append(self.snapshot(stage, part))
        self.rows += rows
        return rows

    def record(self, name, rows, step0, wall, **extra):
        last = rows[-1]
        s = {'stage': name, 'ps': (self.step - step0) * self.a.dt / 1000.0,
             'wall_s': round(wall, 2),
             'temperature_mean_K': npt_stats.mean([r['temperature_K'] for r in rows]),
             'temperature_end_K': last['temperature_K'],
             'density_mean_g_cm3': npt_stats.mean([r['density_g_cm3'] for r in rows]),
             'density_end_g_cm3': last['density_g_cm3'],
             'restraint_end_kcal_mol': last['restraint_kcal_mol'],
             'potential_end_kcal_mol': last['potential_kcal_mol'],
             'rmsd_end_a': last['rmsd_a'], 'rmsd_fit_end_a': last['rmsd_fit_a'],
             'k_end': last['k']}
        s.update(extra)
        self.stages.append(s)
        return s

    def execute(self):
        a = self.a
        # 1: minimise, restrained.
        t0, step0 = time.perf_counter(), self.step
        self.set_k(a.k)
        start = self.snapshot('start', 0)
        mm.LocalEnergyMinimizer.minimize(self.ctx, a.min_tolerance, a.min_steps)
        self.ctx.setVelocities([mm.Vec3(0, 0, 0)] * self.system.getNumParticles())
        m = self.snapshot('minimise', 0)
        self.record('1 minimise', [m], step0, time.perf_counter() - t0,
                    potential_start_kcal_mol=start['potential_kcal_mol'])
        # 2: heat at constant volume, bath 30 ... 300 K.
        t0, step0 = time.perf_counter(), self.step
        rows, parts = [], []
        for i in range(1, a.heat_increments + 1):
            self.set_bath(a.temperature * i / a.heat_increments)
            part = self.run('heat', i, a.heat_ps / a.heat_increments)
            parts.append({'bath_K': self.bath,
                          'temperature_mean_K': npt_stats.mean([r['temperature_K'] for r in part]),
                          'rmsd_end_a': part[-1]['rmsd_a']})
            rows += part
        self.record('2 heat', rows, step0, time.perf_counter() - t0, increments=parts)
        # 3: density, barostat on, restraints tapered.
        t0, step0 = time.perf_counter(), self.step
        self.system.addForce(self.barostat)
        self.ctx.reinitialize(preserveState=True)
        self.set_k(a.k)  # reinitialize keeps parameters; set again to be sure
        self.set_bath(a.temperature)
        rows, parts = [], []
        for i in range(a.taper_parts):
            self.set_k(a.k * (1.0 - i / (a.taper_parts - 1)))
            part = self.run('density', i, a.density_ps / a.taper_parts)
            parts.append({'k': self.k,
                          'temperature_mean_K': npt_stats.mean([r['temperature_K'] for r in part]),
                          'density_mean_g_cm3': npt_stats.mean([r['density_g_cm3']
                                                                for r in part]),
                          'rmsd_end_a': part[-1]['rmsd_a']})
            rows += part
        self.record('3 density', rows, step0, time.perf_counter() - t0, parts=parts)
        # 4: free NPT.
        t0, step0 = time.perf_counter(), self.step
        self.set_k(0.0)
        rows = self.run('free', 0, a.free_ps)
        half = npt_stats.second_half(rows)
        dens = [r['density_g_cm3'] for r in half]
        se, table = npt_stats.block_standard_error(dens, 8) if len(dens) >= 8 else (None, [])
        self.record('4 free', rows, step0, time.perf_counter() - t0,
                    final_density_g_cm3=npt_stats.mean(dens), final_density_se_g_cm3=se,
                    final_density_samples=len(dens),
                    final_density_se_plateau=npt_stats.se_plateau(table),
                    kappa_T_per_bar=npt_stats.compressibility_per_bar(
                        [r['volume_A3'] for r in half], a.temperature) if len(half) > 2 else None)
        return start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('system', help='AMBER prmtop')
    ap.add_argument('--coords', help='inpcrd/rst7 (default: basename .inpcrd)')
    ap.add_argument('--out', default='openmm_equilibrate', help='PREFIX.csv, PREFIX.json')
    ap.add_argument('--mask', default=DEFAULT_MASK, help='restrained atoms (AMBER mask)')
    ap.add_argument('--k', type=float, default=10.0, help='kcal/mol/A^2 (default 10)')
    ap.add_argument('--temperature', type=float, default=300.0)
    ap.add_argument('--dt', type=float, default=2.0, help='fs (default 2)')
    ap.add_argument('--scale', type=float, default=1.0, help='stage lengths x F (default 1)')
    ap.add_argument('--short', action='store_true', help='--scale 0.2')
    ap.add_argument('--min-steps', type=int, default=2000, help='minimiser iterations (2000)')
    ap.add_argument('--min-tolerance', type=float, default=10.0,
                    help='minimiser tolerance, kJ/mol/nm (OpenMM default 10)')
    ap.add_argument('--sample-every', type=int, default=50, help='steps per CSV row (50)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--platform', default='CPU')
    ap.add_argument('--threads', type=int, default=0)
    a = ap.parse_args()
    if a.short:
        a.scale = 0.2
    a.heat_ps, a.heat_increments = 20.0, 10
    a.density_ps, a.taper_parts = 50.0, 5
    a.free_ps = 50.0

    t_start = time.perf_counter()
    p = Protocol(a)
    start = p.execute()
    wall = time.perf_counter() - t_start
    final = p.stages[-1]
    md_steps = p.step
    out = {
        'engine': 'OpenMM ' + mm.Platform.getOpenMMVersion(), 'platform': a.platform,
        'threads': p.platform.getPropertyValue(p.ctx, 'Threads') if a.platform == 'CPU' else None,
        'system': os.path.basename(a.system), 'atoms': p.system.getNumParticles(),
        'restrained_atoms': len(p.solute), 'mask': a.mask, 'mass_amu': p.mass, 'dof': p.dof,
        'settings': {'k_kcal_mol_a2': a.k, 'restraint': 'k |r - r0|^2 (AMBER, no 1/2)',
                     'temperature_K': a.temperature, 'pressure_bar': 1.0, 'barostat_every': 25,
                     'friction_per_ps': 1.0, 'dt_fs': a.dt, 'scale': a.scale,
                     'heat_ps': a.heat_ps * a.scale, 'heat_increments': a.heat_increments,
                     'density_ps': a.density_ps * a.scale, 'taper_parts': a.taper_parts,
                     'free_ps': a.free_ps * a.scale, 'min_steps': a.min_steps,
                     'cutoff_a': CUTOFF_NM * 10, 'ewald_tolerance': EWALD_TOLERANCE,
                     'dispersion_correction': True, 'constraints': 'hbonds',
                     'rigid_water': True, 'seed': a.seed},
        'density_start_g_cm3': start['density_g_cm3'],
        'final_density_g_cm3': final['final_density_g_cm3'],
        'final_density_se_g_cm3': final['final_density_se_g_cm3'],
        'stages': p.stages,
        'md_steps': md_steps, 'wall_s': round(wall, 2),
        'csv': os.path.abspath(a.out + '.csv'),
    }
    with open(a.out + '.csv', 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=list(p.rows[0].keys()))
        w.writeheader()
        for r in p.rows:
            w.writerow({k: ('%.6f' % v if isinstance(v, float) else v) for k, v in r.items()})
    with open(a.out + '.json', 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')
    print('%s: %d atoms, %d restrained (%s); %d MD steps in %.0f s'
          % (out['system'], out['atoms'], len(p.solute), a.mask, md_steps, wall))
    print('%-11s %7s %8s %8s %9s %9s %8s %8s %9s' % ('stage', 'ps', '<T> K', 'T end',
                                                     '<rho>', 'rho end', 'rmsd A', 'fit A',
                                                     'E_rst'))
    for s in p.stages:
        print('%-11s %7.1f %8.1f %8.1f %9.4f %9.4f %8.3f %8.3f %9.3f'
              % (s['stage'], s['ps'], s['temperature_mean_K'], s['temperature_end_K'],
                 s['density_mean_g_cm3'], s['density_end_g_cm3'], s['rmsd_end_a'],
                 s['rmsd_fit_end_a'], s['restraint_end_kcal_mol']))
    se = out['final_density_se_g_cm3']
    print('final density %.4f +- %s g/cm^3 (mean over the second half of stage 4, %d samples)'
          % (out['final_density_g_cm3'], '%.4f' % se if se is not None else '? (< 8 samples)',
             final['final_density_samples']))


if __name__ == '__main__':
    main()
