#!/usr/bin/python3
"""OpenMM's density and volume fluctuations of a water box at 300 K and 1 bar,
the reference for vkmd's Monte Carlo barostat (docs/VALIDATION.md).

The box is vkmd's own: pass the PDB that `vkmd run water:N --steps 0 --out
DIR` writes (DIR/final.pdb), or an AMBER prmtop (its .inpcrd beside it or
--coords). Settings (tools/openmm_system.py): amber14/tip3p.xml, rigid water,
PME, cutoff 9 A, Ewald tolerance 5e-4, dispersion correction;
LangevinMiddleIntegrator 300 K, 1/ps, 2 fs; MonteCarloBarostat 1 bar,
isotropic, an attempt every 25 steps. The energy is first minimised (vkmd's
water:N is a lattice-like start), velocities drawn at T, then --ps of NPT
(50 ps by default), sampled every --sample-every steps.

Writes PREFIX.csv (time_ps, step, volume_A3, density_g_cm3, temperature_K,
potential_kcal_mol; t = 0 is the start of the NPT run) and PREFIX.json: the
second half's mean density, its block-averaged standard error, the volume's
standard deviation, kappa_T = var(V) / (k_B T <V>) in 1/bar beside TIP3P's
literature value (tools/npt_stats.py), the settings and the wall time.

usage: /usr/bin/python3 tools/openmm_npt.py BOX.pdb|SYSTEM.prmtop [--out PREFIX] [--ps 50]
       [--seed S] [--sample-every 50] [--threads N] [--platform CPU]
"""
import argparse
import csv
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npt_stats  # noqa: E402
from openmm_system import (mm, unit, load, platform_and_properties, total_mass_amu,  # noqa: E402
                           degrees_of_freedom, box_volume_a3, temperature_k, KJ_PER_KCAL,
                           CONSTRAINT_TOLERANCE, CUTOFF_NM, EWALD_TOLERANCE)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('system', help='water box PDB (with CRYST1) or AMBER prmtop')
    ap.add_argument('--coords', help='coordinates for a prmtop (default: basename .inpcrd)')
    ap.add_argument('--out', default='openmm_npt', help='output prefix (PREFIX.csv, PREFIX.json)')
    ap.add_argument('--ps', type=float, default=50.0, help='NPT length in ps (default 50)')
    ap.add_argument('--dt', type=float, default=2.0, help='time step in fs (default 2)')
    ap.add_argument('--temperature', type=float, default=300.0, help='K (default 300)')
    ap.add_argument('--pressure', type=float, default=1.0, help='bar (default 1)')
    ap.add_argument('--friction', type=float, default=1.0, help='1/ps (default 1)')
    ap.add_argument('--barostat-every', type=int, default=25, help='steps (default 25)')
    ap.add_argument('--sample-every', type=int, default=50,
                    help='steps between CSV rows (default 50 = 0.1 ps)')
    ap.add_argument('--min-iterations', type=int, default=0,
                    help='minimiser iterations (default 0: until converged)')
    ap.add_argument('--seed', type=int, default=1, help='velocities, Langevin and barostat')
    ap.add_argument('--platform', default='CPU')
    ap.add_argument('--threads', type=int, default=0, help='CPU threads (default: all)')
    a = ap.parse_args()
    steps = int(round(a.ps * 1000.0 / a.dt))
    if a.sample_every < 1 or steps < 16 * a.sample_every:
        ap.error('need --ps long enough for 16 samples of --sample-every steps')

    t_start = time.perf_counter()
    topology, system, positions, box = load(a.system, a.coords)
    T = a.temperature * unit.kelvin
    barostat = mm.MonteCarloBarostat(a.pressure * unit.bar, T, a.barostat_every)
    barostat.setRandomNumberSeed(a.seed)
    system.addForce(barostat)
    integ = mm.LangevinMiddleIntegrator(T, a.friction / unit.picosecond,
                                        a.dt * unit.femtoseconds)
    integ.setConstraintTolerance(CONSTRAINT_TOLERANCE)
    integ.setRandomNumberSeed(a.seed)
    platform, props = platform_and_properties(a.platform, a.threads)
    ctx = mm.Context(system, integ, platform, props)
    ctx.setPeriodicBoxVectors(*box)
    ctx.setPositions(positions)
    mm.LocalEnergyMinimizer.minimize(ctx, 10.0, a.min_iterations)
    ctx.setVelocitiesToTemperature(T, a.seed)
    mass = total_mass_amu(system)
    dof = degrees_of_freedom(system)

    rows = []

    def sample(step):
        s = ctx.getState(getEnergy=True)
        v = box_volume_a3(s)
        rows.append({'time_ps': step * a.dt / 1000.0, 'step': step, 'volume_A3': v,
                     'density_g_cm3': mass / v * npt_stats.G_CM3_PER_AMU_A3,
                     'temperature_K': temperature_k(s, dof),
                     'potential_kcal_mol': s.getPotentialEnergy().value_in_unit(
                         unit.kilojoule_per_mole) / KJ_PER_KCAL})

    t_md = time.perf_counter()
    sample(0)
    done = 0
    while done < steps:
        n = min(a.sample_every, steps - done)
        integ.step(n)
        done += n
        sample(done)
    wall_md = time.perf_counter() - t_md

    with open(a.out + '.csv', 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        for r in rows:
            w.writerow({k: ('%.6f' % v if isinstance(v, float) else v) for k, v in r.items()})
    summary = npt_stats.summarise(rows, a.temperature)
    summary.update({
        'engine': 'OpenMM ' + mm.Platform.getOpenMMVersion(),
        'platform': a.platform,
        'threads': platform.getPropertyValue(ctx, 'Threads') if a.platform == 'CPU' else None,
        'system': os.path.basename(a.system), 'atoms': system.getNumParticles(),
        'waters': sum(1 for r in topology.residues() if r.name in ('HOH', 'WAT')),
        'mass_amu': mass, 'dof': dof,
        'settings': {'ps': a.ps, 'dt_fs': a.dt, 'temperature_K': a.temperature,
                     'pressure_bar': a.pressure, 'friction_per_ps': a.friction,
                     'barostat_every': a.barostat_every, 'sample_every': a.sample_every,
                     'cutoff_a': CUTOFF_NM * 10, 'ewald_tolerance': EWALD_TOLERANCE,
                     'dispersion_correction': True, 'rigid_water': True,
                     'constraints': 'hbonds', 'seed': a.seed},
        'density_start_g_cm3': rows[0]['density_g_cm3'],
        'temperature_mean_K': npt_stats.mean([r['temperature_K'] for r in
                                              npt_stats.second_half(rows)]),
        'wall_s_md': round(wall_md, 2), 'wall_s_total': round(time.perf_counter() - t_start, 2),
        'ns_per_day': round(steps * a.dt * 1e-6 / wall_md * 86400, 3),
        'csv': os.path.abspath(a.out + '.csv'),
    })
    with open(a.out + '.json', 'w') as f:
        json.dump(summary, f, indent=1)
        f.write('\n')
    print('%s: %d atoms, %.0f ps NPT in %.1f s; density %.4f +- %.4f g/cm^3 (second half), '
          'sd(V) %.1f A^3, kappa_T %.3g /bar (TIP3P literature ~%.3g)'
          % (summary['system'], summary['atoms'], a.ps, wall_md,
             summary['density_mean_g_cm3'], summary['density_se_g_cm3'],
             summary['volume_sd_A3'], summary['kappa_T_per_bar'],
             npt_stats.TIP3P_KAPPA_T_PER_BAR))


if __name__ == '__main__':
    main()
