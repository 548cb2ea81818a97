#!/usr/bin/python3
"""OpenMM's NVE energy drift with the settings `vkmd run` uses: the yardstick
for vkmd's own drift figure.

Loads an AMBER prmtop + inpcrd (or the generated solvated villin,
villin_solv.prmtop/.inpcrd, which tests/oracles/openmm_reference.py --generated
writes and this script builds when it is missing), then:
  system    PME, 9 A cutoff, ewaldErrorTolerance 5e-4, long-range dispersion
            correction (OpenMM's default), HBonds constraints, rigid water,
            centre-of-mass motion removed
  minimise  LocalEnergyMinimizer (--min-iterations, 0 = to convergence)
  equilibrate  LangevinMiddleIntegrator, --temperature 300 K, --friction 1/ps,
            --dt-fs 2, --equil-steps steps, velocities drawn at T (--seed)
  NVE       VerletIntegrator, same dt, --steps steps, total energy every
            --report-every steps
Waters whose prmtop lists no H-H bond get the H-H constraint here, so they are
rigid as vkmd's SETTLE waters are (make_water_rigid). Both integrators use
constraint tolerance 1e-5 and live in one Context (a
CompoundIntegrator), so the NVE part starts from the equilibrated state exactly.

The drift is the least-squares slope of the total energy against time (the
fit vkmd's run summary uses, engine/run/energy_drift.c), in kcal/mol/ns and in k_B T
per ns per degree of freedom at the mean NVE temperature, with
dof = 3 N - constraints - 3 (N without virtual sites). Prints one JSON object (units in the key names):
  atoms, dt_fs, steps, drift_kcal_mol_per_ns, drift_kT_per_ns_per_dof, dof,
  mean_T, platform, openmm_version
plus the slope's standard error, the RMS fluctuation about the line, the
settings and wall times (setup, minimise, equilibrate, NVE, OpenMM's NVE
ns/day). The fastest platform present is used (CPU before Reference) unless
--platform names one.

Run with /usr/bin/python3 (Debian's OpenMM). Example:
  /usr/bin/python3 tests/oracles/openmm_nve_drift.py --generated /tmp/gen --steps 1000
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time

import openmm
import openmm.app as app
import openmm.unit as unit

KJ_PER_KCAL = 4.184
BOLTZMANN_KCAL = 0.00198720425864083  # kcal/mol/K (engine/core/units.h)
CUTOFF_NM = 0.9
EWALD_TOLERANCE = 5e-4
CONSTRAINT_TOLERANCE = 1e-5
PLATFORM_ORDER = ('CUDA', 'OpenCL', 'HIP', 'CPU', 'Reference')


def make_water_rigid(prmtop, system):
    """rigidWater=True makes AmberPrmtopFile constrain the water bonds the
    prmtop lists. An AMBER-built TIP3P lists H-H as a bond, so its waters come
    out rigid; a prmtop written from an OpenMM topology (the generated
    villin_solv) lists only the two O-H bonds, and its waters keep a flexible
    H-O-H angle. vkmd's SETTLE holds all three distances, so this adds the
    missing H-H constraint at the length the O-H constraints and the angle's
    equilibrium give (as OpenMM's ForceField does for rigid water). Returns how
    many it added."""
    length = {}  # constrained pair (low, high) -> nm
    for i in range(system.getNumConstraints()):
        a, b, d = system.getConstraintParameters(i)
        length[(min(a, b), max(a, b))] = d.value_in_unit(unit.nanometer)
    angles = [f for f in system.getForces() if isinstance(f, openmm.HarmonicAngleForce)]
    theta = {}
    for f in angles:
        for i in range(f.getNumAngles()):
            a, b, c, t0, _ = f.getAngleParameters(i)
            theta[(min(a, c), b, max(a, c))] = t0.value_in_unit(unit.radian)
    added = 0
    for res in prmtop.topology.residues():
        atoms = list(res.atoms())
        if res.name not in ('HOH', 'WAT') or len(atoms) != 3:
            continue
        o = [a.index for a in atoms if a.element is not None and a.element.symbol == 'O']
        h = [a.index for a in atoms if a.element is not None and a.element.symbol == 'H']
        if len(o) != 1 or len(h) != 2:
            continue
        h1, h2 = min(h), max(h)
        if (h1, h2) in length:
            continue
        d1 = length.get((min(o[0], h1), max(o[0], h1)))
        d2 = length.get((min(o[0], h2), max(o[0], h2)))
        t0 = theta.get((h1, o[0], h2))
        if d1 is None or d2 is None or t0 is None:
            raise SystemExit('openmm_nve_drift: water residue %d has no O-H constraints or '
                             'H-O-H angle to make it rigid' % res.index)
        system.addConstraint(h1, h2, math.sqrt(d1 * d1 + d2 * d2 - 2 * d1 * d2 * math.cos(t0)))
        added += 1
    return added


def pick_platform(name):
    present = [openmm.Platform.getPlatform(i).getName()
               for i in range(openmm.Platform.getNumPlatforms())]
    if name:
        if name not in present:
            raise SystemExit('openmm_nve_drift: platform %s not available (have %s)'
                             % (name, ', '.join(present)))
        return openmm.Platform.getPlatformByName(name)
    for p in PLATFORM_ORDER:
        if p in present:
            return openmm.Platform.getPlatformByName(p)
    raise SystemExit('openmm_nve_drift: no OpenMM platform')


def generated_inputs(out_dir):
    prmtop = os.path.join(out_dir, 'villin_solv.prmtop')
    inpcrd = os.path.join(out_dir, 'villin_solv.inpcrd')
    if not (os.path.exists(prmtop) and os.path.exists(inpcrd)):
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'openmm_reference.py')
        print('openmm_nve_drift: building villin_solv with %s' % script, file=sys.stderr)
        subprocess.run([sys.executable, script, '--generated', '--out', out_dir], check=True)
    return prmtop, inpcrd


def fit_line(t, e):
    """Least-squares e = a + b t with centred sums; returns b, stderr(b), RMS residual."""
    n = len(t)
    mt, me = sum(t) / n, sum(e) / n
    sxx = sum((x - mt) ** 2 for x in t)
    sxy = sum((x - mt) * (y - me) for x, y in zip(t, e))
    b = sxy / sxx
    a = me - b * mt
    ssr = sum((y - a - b * x) ** 2 for x, y in zip(t, e))
    se = math.sqrt(ssr / (n - 2) / sxx) if n > 2 else 0.0
    return b, se, math.sqrt(ssr / n)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument('--prmtop', help='AMBER prmtop (needs --inpcrd)')
    src.add_argument('--generated', metavar='DIR',
                     help='use DIR/villin_solv.prmtop/.inpcrd (built there if missing)')
    parser.add_argument('--inpcrd', help='coordinates for --prmtop (inpcrd/rst7 with a box)')
    parser.add_argument('--steps', type=int, default=1000, help='NVE steps (default 1000)')
    parser.add_argument('--report-every', type=int, default=10,
                        help='NVE steps between energy samples (default 10)')
    parser.add_argument('--equil-steps', type=int, default=1000,
                        help='Langevin steps before NVE (default 1000)')
    parser.add_argument('--dt-fs', type=float, default=2.0, help='time step in fs (default 2)')
    parser.add_argument('--temperature', type=float, default=300.0, help='K (default 300)')
    parser.add_argument('--friction', type=float, default=1.0, help='1/ps (default 1)')
    parser.add_argument('--min-iterations', type=int, default=0,
                        help='minimiser iterations (default 0: until converged)')
    parser.add_argument('--seed', type=int, default=2024, help='velocities and Langevin noise')
    parser.add_argument('--platform', help='OpenMM platform (default: fastest present)')
    parser.add_argument('--threads', type=int, help='CPU platform threads (default: all)')
    parser.add_argument('--json', metavar='FILE', help='also write the JSON here')
    parser.add_argument('--implicit', choices=['hct', 'obc1', 'obc2', 'gbn', 'gbn2'],
                        help='generalized Born implicit solvent (a prmtop with GB radii and '
                        'no box): no cutoff, as vkmd run --implicit')
    args = parser.parse_args()
    if args.prmtop and not args.inpcrd:
        parser.error('--prmtop needs --inpcrd')
    if args.steps < 2 * args.report_every or args.report_every < 1:
        parser.error('need --steps >= 2 x --report-every >= 2 (at least 3 energy samples)')

    t_start = time.perf_counter()
    prmtop_path, inpcrd_path = ((args.prmtop, args.inpcrd) if args.prmtop
                                else generated_inputs(args.generated))
    prmtop = app.AmberPrmtopFile(prmtop_path)
    inpcrd = app.AmberInpcrdFile(inpcrd_path)
    if args.implicit:
        models = {'hct': app.HCT, 'obc1': app.OBC1, 'obc2': app.OBC2, 'gbn': app.GBn,
                  'gbn2': app.GBn2}
        system = prmtop.createSystem(nonbondedMethod=app.NoCutoff, constraints=app.HBonds,
                                     rigidWater=True, implicitSolvent=models[args.implicit],
                                     removeCMMotion=True)
    elif inpcrd.boxVectors is None:
        raise SystemExit('openmm_nve_drift: %s has no box; PME needs one' % inpcrd_path)
    else:
        system = prmtop.createSystem(nonbondedMethod=app.PME,
                                     nonbondedCutoff=CUTOFF_NM * unit.nanometer,
                                     constraints=app.HBonds, rigidWater=True,
                                     ewaldErrorTolerance=EWALD_TOLERANCE, removeCMMotion=True)
    rigid_added = make_water_rigid(prmtop, system)
    atoms = system.getNumParticles()
    cm_removed = any(isinstance(f, openmm.CMMotionRemover) for f in system.getForces())
    # virtual sites (massless extra points) carry no degrees of freedom
    massive = sum(1 for i in range(atoms) if not system.isVirtualSite(i))
    dof = 3 * massive - system.getNumConstraints() - (3 if cm_removed else 0)

    dt = args.dt_fs * unit.femtosecond
    langevin = openmm.LangevinMiddleIntegrator(args.temperature * unit.kelvin,
                                               args.friction / unit.picosecond, dt)
    langevin.setConstraintTolerance(CONSTRAINT_TOLERANCE)
    langevin.setRandomNumberSeed(args.seed)
    verlet = openmm.VerletIntegrator(dt)
    verlet.setConstraintTolerance(CONSTRAINT_TOLERANCE)
    integrator = openmm.CompoundIntegrator()
    integrator.addIntegrator(langevin)
    integrator.addIntegrator(verlet)

    platform = pick_platform(args.platform)
    props = {}
    if platform.getName() == 'CPU' and args.threads:
        props['Threads'] = str(args.threads)
    context = openmm.Context(system, integrator, platform, props)
    if inpcrd.boxVectors is not None and not args.implicit:
        context.setPeriodicBoxVectors(*inpcrd.boxVectors)
    context.setPositions(inpcrd.positions)
    nb = [f for f in system.getForces() if isinstance(f, openmm.NonbondedForce)][0]
    # Informational only (the JSON's settings). OpenMM 7.7's CPU platform has
    # thrown std::bad_cast here in some of this project's test runs (the same
    # command then succeeds when repeated); the drift does not depend on it.
    try:
        alpha, nx, ny, nz = nb.getPMEParametersInContext(context)
        pme_note = None
    except openmm.OpenMMException as e:
        alpha, nx, ny, nz = float('nan'), 0, 0, 0
        pme_note = 'getPMEParametersInContext failed: %s' % e
    t_setup = time.perf_counter()

    openmm.LocalEnergyMinimizer.minimize(context, maxIterations=args.min_iterations)
    t_min = time.perf_counter()

    context.setVelocitiesToTemperature(args.temperature * unit.kelvin, args.seed)
    integrator.setCurrentIntegrator(0)
    if args.equil_steps > 0:
        integrator.step(args.equil_steps)
    context.getState(getEnergy=True)  # waits for the device
    t_equil = time.perf_counter()

    integrator.setCurrentIntegrator(1)
    times_ps, totals, temps = [], [], []

    def sample(step):
        s = context.getState(getEnergy=True)
        ke = s.getKineticEnergy().value_in_unit(unit.kilojoule_per_mole) / KJ_PER_KCAL
        pe = s.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole) / KJ_PER_KCAL
        if not (math.isfinite(ke) and math.isfinite(pe)):
            raise SystemExit('openmm_nve_drift: non-finite energy at NVE step %d' % step)
        times_ps.append(step * args.dt_fs / 1000.0)
        totals.append(pe + ke)
        temps.append(2.0 * ke / (dof * BOLTZMANN_KCAL))

    sample(0)
    done = 0
    while done < args.steps:
        n = min(args.report_every, args.steps - done)
        integrator.step(n)
        done += n
        sample(done)
    t_nve = time.perf_counter()

    slope_ps, se_ps, rms = fit_line(times_ps, totals)
    mean_t = sum(temps) / len(temps)
    slope_ns = slope_ps * 1000.0
    nve_s = t_nve - t_equil
    result = {
        'atoms': atoms,
        'dt_fs': args.dt_fs,
        'steps': args.steps,
        'drift_kcal_mol_per_ns': slope_ns,
        'drift_kT_per_ns_per_dof': slope_ns / (BOLTZMANN_KCAL * mean_t) / dof,
        'dof': dof,
        'mean_T': mean_t,
        'platform': platform.getName(),
        'openmm_version': openmm.version.version,
        'drift_stderr_kcal_mol_per_ns': se_ps * 1000.0,
        'total_energy_rms_about_fit_kcal_mol': rms,
        'total_energy_start_kcal_mol': totals[0],
        'total_energy_end_kcal_mol': totals[-1],
        'samples': len(totals),
        'report_every': args.report_every,
        'equil_steps': args.equil_steps,
        'system': os.path.abspath(prmtop_path),
        'settings': {
            'nonbonded': 'PME', 'cutoff_a': CUTOFF_NM * 10.0,
            'ewald_error_tolerance': EWALD_TOLERANCE,
            'ewald_alpha_per_a': None if pme_note else alpha / 10.0,
            'pme_grid': None if pme_note else [nx, ny, nz], 'pme_note': pme_note,
            'dispersion_correction': bool(nb.getUseDispersionCorrection()),
            'constraints': 'HBonds', 'rigid_water': True,
            'constraint_tolerance': CONSTRAINT_TOLERANCE, 'constraints_count':
            system.getNumConstraints(), 'water_hh_constraints_added': rigid_added,
            'temperature_k': args.temperature,
            'friction_per_ps': args.friction, 'seed': args.seed,
            'equilibration': 'LangevinMiddleIntegrator', 'nve': 'VerletIntegrator',
        },
        'wall_s': {
            'setup': t_setup - t_start, 'minimize': t_min - t_setup,
            'equilibrate': t_equil - t_min, 'nve': nve_s, 'total': t_nve - t_start,
        },
        'nve_ns_per_day': args.steps * args.dt_fs * 1e-6 * 86400.0 / nve_s if nve_s > 0 else 0.0,
    }
    if platform.getName() == 'CPU':
        result['threads'] = int(platform.getPropertyValue(context, 'Threads'))
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        with open(args.json, 'w') as f:
            f.write(text + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
