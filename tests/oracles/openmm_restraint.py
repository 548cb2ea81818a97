#!/usr/bin/python3
"""External check of vkmd's positional-restraint reference: OpenMM data.

For each case, loads a committed AMBER system from tests/data with OpenMM's
own AMBER reader, picks atoms by a rule written out below (the C test checks
that the case's AMBER mask selects exactly these atoms), displaces their
reference positions deterministically (some by whole box vectors plus a
shift, so the minimum image matters), and evaluates a System holding only a
CustomExternalForce on the Reference platform (double precision):
  periodic  k*periodicdistance(x,y,z,x0,y0,z0)^2
            (flat bottom: k*step(d-rfb)*(d-rfb)^2, d = periodicdistance)
  vacuum    k*((x-x0)^2+(y-y0)^2+(z-z0)^2)
k in AMBER's convention (E = k |d|^2, no 1/2; restraint_wt).

Writes tests/data/restraint_CASE.openmm.txt, in vkmd units (kcal/mol, A):
  system NAME / mask MASK / k K / flat_bottom_a R / periodic 0|1
  restraints N            followed by N lines "atom x0 y0 z0" (1-based atom)
  energy E
  forces M                followed by M lines "fx fy fz" (every atom)
Run with /usr/bin/python3 (Debian's OpenMM):
  tests/oracles/openmm_restraint.py --data tests/data
"""

import argparse
import math
import os

import openmm
import openmm.app as app
import openmm.unit as unit

KJ_PER_KCAL = 4.184
FORCE_KJNM_TO_KCALA = 1.0 / (KJ_PER_KCAL * 10.0)

# name, system, mask, k (kcal/mol/A^2), flat bottom (A), atom rule
CASES = [
    ('water_nacl', 'water_nacl', ':1-30@O | :NA,CL', 10.0, 0.0,
     lambda a: (a.residue.index < 30 and a.name == 'O') or a.residue.name in ('NA', 'CL')),
    ('water_nacl_fb', 'water_nacl', ':1-30@O | :NA,CL', 5.0, 0.3,
     lambda a: (a.residue.index < 30 and a.name == 'O') or a.residue.name in ('NA', 'CL')),
    ('villin_vac', 'villin_vac', '!:Cl & !@H=', 10.0, 0.0,
     lambda a: a.residue.name != 'Cl' and not a.name.startswith('H')),
]


def displaced(n, x, box):
    """Reference of the n-th selected atom at x (A): a shift of up to ~0.9 A,
    and for every third atom whole box vectors too (periodic only)."""
    d = [0.9 * math.sin(1.3 * n + 0.2), 0.7 * math.cos(0.7 * n), 0.5 * math.sin(2.9 * n + 1.0)]
    r0 = [x[k] + d[k] for k in range(3)]
    if box is not None and n % 3 == 0:
        r0[0] += box[0] * (1 if n % 2 else -1)
        r0[2] += 2 * box[2]
    return r0


def run_case(data, name, system_name, mask, k, rfb, rule):
    prmtop = app.AmberPrmtopFile(os.path.join(data, system_name + '.prmtop'))
    inpcrd = app.AmberInpcrdFile(os.path.join(data, system_name + '.inpcrd'))
    top = prmtop.topology
    periodic = inpcrd.boxVectors is not None
    box = None
    system = openmm.System()
    for atom in top.atoms():
        system.addParticle(1.0)
    if periodic:
        bv = inpcrd.boxVectors
        system.setDefaultPeriodicBoxVectors(*bv)
        box = [bv[i][i].value_in_unit(unit.angstrom) for i in range(3)]
    if periodic and rfb > 0:
        expr = 'k*step(d-rfb)*(d-rfb)^2; d=periodicdistance(x,y,z,x0,y0,z0)'
    elif periodic:
        expr = 'k*periodicdistance(x,y,z,x0,y0,z0)^2'
    elif rfb > 0:
        expr = 'k*step(d-rfb)*(d-rfb)^2; d=sqrt((x-x0)^2+(y-y0)^2+(z-z0)^2)'
    else:
        expr = 'k*((x-x0)^2+(y-y0)^2+(z-z0)^2)'
    force = openmm.CustomExternalForce(expr)
    force.addGlobalParameter('k', k * KJ_PER_KCAL * 100.0)  # kJ/mol/nm^2
    if rfb > 0:
        force.addGlobalParameter('rfb', rfb / 10.0)
    for p in ('x0', 'y0', 'z0'):
        force.addPerParticleParameter(p)
    pos_a = [[v.x * 10.0, v.y * 10.0, v.z * 10.0]
             for v in inpcrd.getPositions(asNumpy=False).value_in_unit(unit.nanometer)]
    refs = []
    for atom in top.atoms():
        if rule(atom):
            r0 = displaced(len(refs), pos_a[atom.index], box)
            refs.append((atom.index, r0))
            force.addParticle(atom.index, [c / 10.0 for c in r0])
    system.addForce(force)
    ctx = openmm.Context(system, openmm.VerletIntegrator(1.0),
                         openmm.Platform.getPlatformByName('Reference'))
    ctx.setPositions(inpcrd.positions)
    if periodic:
        ctx.setPeriodicBoxVectors(*inpcrd.boxVectors)
    st = ctx.getState(getEnergy=True, getForces=True)
    e = st.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole) / KJ_PER_KCAL
    f = st.getForces(asNumpy=False).value_in_unit(unit.kilojoule_per_mole / unit.nanometer)
    out = os.path.join(data, 'restraint_%s.openmm.txt' % name)
    with open(out, 'w') as fh:
        fh.write('# vkmd restraint reference data. OpenMM %s, platform Reference. '
                 'Units: kcal/mol, A, kcal/mol/A\n' % openmm.__version__)
        fh.write('# written by tests/oracles/openmm_restraint.py (its docstring defines every key)\n')
        fh.write('system %s\nmask %s\nk %.17g\nflat_bottom_a %.17g\nperiodic %d\n'
                 % (system_name, mask, k, rfb, 1 if periodic else 0))
        fh.write('restraints %d\n' % len(refs))
        for idx, r0 in refs:
            fh.write('%d %.17g %.17g %.17g\n' % (idx + 1, r0[0], r0[1], r0[2]))
        fh.write('energy %.15e\n' % e)
        fh.write('forces %d\n' % len(f))
        for v in f:
            fh.write('%.15e %.15e %.15e\n' % (v.x * FORCE_KJNM_TO_KCALA, v.y * FORCE_KJNM_TO_KCALA,
                                               v.z * FORCE_KJNM_TO_KCALA))
    print('%s: %d restraints, E = %.6f kcal/mol -> %s' % (name, len(refs), e, out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--data', default=os.path.join(os.path.dirname(__file__), '..', 'data'))
    args = ap.parse_args()
    for case in CASES:
        run_case(args.data, *case)


if __name__ == '__main__':
    main()
