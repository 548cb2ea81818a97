"""OpenMM systems in vkmd's settings, shared by tools/openmm_npt.py and
tools/openmm_equilibrate.py.

A system comes from vkmd's water box PDB (`vkmd run water:N --steps 0 --out
DIR` writes DIR/final.pdb: TIP3P waters with CRYST1), parametrised with
amber14/tip3p.xml (the same energies as `vkmd energy` on that PDB: checked
to 1e-9 kcal/mol on water:1000), or from an AMBER prmtop and its inpcrd.
Settings as vkmd's defaults: PME, cutoff 9 A, Ewald tolerance 5e-4, long-range
dispersion correction, bonds to hydrogen constrained, rigid water (all three
distances, as vkmd's SETTLE), constraint tolerance 1e-5, centre-of-mass
motion removed.

Run with /usr/bin/python3 (Debian's OpenMM 7.7, python3-simtk).
"""
import math

try:
    import openmm as mm
    from openmm import app, unit
except ImportError:  # OpenMM 7.7 as packaged by Debian, older layout
    from simtk import openmm as mm
    from simtk.openmm import app
    from simtk import unit

CUTOFF_NM = 0.9
EWALD_TOLERANCE = 5e-4
CONSTRAINT_TOLERANCE = 1e-5
KJ_PER_KCAL = 4.184
WATER_NAMES = ('HOH', 'WAT')


def make_water_rigid(topology, system):
    """Adds the H-H constraint to waters that have only their two O-H
    constraints (a prmtop written by ParmEd from an OpenMM topology lists only
    the O-H bonds, so rigidWater leaves the H-O-H angle flexible; vkmd's SETTLE
    holds all three distances). The length comes from the O-H constraints and
    the angle's equilibrium, as OpenMM's ForceField does. Same logic as
    tests/oracles/openmm_nve_drift.py. Returns how many it added."""
    length = {}
    for i in range(system.getNumConstraints()):
        a, b, d = system.getConstraintParameters(i)
        length[(min(a, b), max(a, b))] = d.value_in_unit(unit.nanometer)
    theta = {}
    for f in system.getForces():
        if isinstance(f, mm.HarmonicAngleForce):
            for i in range(f.getNumAngles()):
                a, b, c, t0, _ = f.getAngleParameters(i)
                theta[(min(a, c), b, max(a, c))] = t0.value_in_unit(unit.radian)
    added = 0
    for res in topology.residues():
        atoms = list(res.atoms())
        if res.name not in WATER_NAMES or len(atoms) != 3:
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
            raise SystemExit('water residue %d has no O-H constraints or H-O-H angle to make it '
                             'rigid' % res.index)
        system.addConstraint(h1, h2, math.sqrt(d1 * d1 + d2 * d2 - 2 * d1 * d2 * math.cos(t0)))
        added += 1
    return added


def load(path, coords=None):
    """(topology, system, positions, box vectors) from a water box PDB or an
    AMBER prmtop (coords: its inpcrd/rst7; default the prmtop's basename
    .inpcrd). Exits with a message when there is no periodic box."""
    opts = dict(nonbondedMethod=app.PME, nonbondedCutoff=CUTOFF_NM * unit.nanometer,
                ewaldErrorTolerance=EWALD_TOLERANCE, constraints=app.HBonds, rigidWater=True,
                removeCMMotion=True)
    if path.endswith('.prmtop') or path.endswith('.parm7'):
        coords = coords or path.rsplit('.', 1)[0] + '.inpcrd'
        prmtop = app.AmberPrmtopFile(path)
        crd = app.AmberInpcrdFile(coords)
        topology, positions, box = prmtop.topology, crd.positions, crd.boxVectors
        system = prmtop.createSystem(**opts)
        make_water_rigid(topology, system)
    else:
        pdb = app.PDBFile(coords or path)
        topology, positions = pdb.topology, pdb.positions
        box = topology.getPeriodicBoxVectors()
        system = app.ForceField('amber14/tip3p.xml').createSystem(topology, **opts)
    if box is None:
        raise SystemExit('%s: no periodic box (PDB CRYST1 or inpcrd box line needed)' % path)
    for f in system.getForces():
        if isinstance(f, mm.NonbondedForce):
            f.setUseDispersionCorrection(True)
    return topology, system, positions, box


def platform_and_properties(name, threads):
    platform = mm.Platform.getPlatformByName(name)
    props = {'Threads': str(threads)} if threads and name == 'CPU' else {}
    return platform, props


def total_mass_amu(system):
    return sum(system.getParticleMass(i).value_in_unit(unit.dalton)
               for i in range(system.getNumParticles()))


def degrees_of_freedom(system):
    cm = any(isinstance(f, mm.CMMotionRemover) for f in system.getForces())
    return 3 * system.getNumParticles() - system.getNumConstraints() - (3 if cm else 0)


def box_volume_a3(state):
    a, b, c = state.getPeriodicBoxVectors(asNumpy=True).value_in_unit(unit.angstrom)
    return float(a[0] * b[1] * c[2])  # OpenMM's boxes are reduced (triangular)


def temperature_k(state, dof):
    ke = state.getKineticEnergy().value_in_unit(unit.kilojoule_per_mole)
    return 2.0 * ke / (dof * unit.MOLAR_GAS_CONSTANT_R.value_in_unit(
        unit.kilojoule_per_mole / unit.kelvin))
