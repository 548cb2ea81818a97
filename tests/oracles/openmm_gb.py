#!/usr/bin/python3
"""External check of vkmd's generalized Born reference: OpenMM data.

Takes the committed vacuum systems tests/data/ala2_vac and villin_vac (their
RADII are zero), sets the radius set AMBER pairs with each model with
ParmEd's changeRadii (HCT igb 1: mbondi; OBC1 igb 2 and OBC2 igb 5:
mbondi2; GBn igb 7: bondi; GBn2 igb 8: mbondi3) and writes the prmtops as
OUT/gb_SYSTEM_SET.prmtop. Then, for each case below, builds the system with
OpenMM's own AMBER reader (AmberPrmtopFile.createSystem with
implicitSolvent, implicitSolventSaltConc, temperature 300 K, gbsaModel) and
evaluates the GB force alone (it alone in force group 1) on the Reference
platform in double precision.

OpenMM keeps the ACE nonpolar term inside the GB force (an energy term of
the CustomGBForce; part of the built-in GBSAOBCForce for OBC2 without salt),
so it is isolated by difference: a case with ACE is evaluated twice, with
gbsaModel='ACE' and with gbsaModel=None; gb_energy is the latter (polar
only), nonpolar_energy the difference, and the forces are the whole GB
force's with ACE.

Writes OUT/gb_cases.txt (one case name a line) and for each case
OUT/gb_CASE.openmm.txt, in vkmd units (kcal/mol, A, kcal/mol/A):
  system NAME            the committed system (tests/data/NAME.inpcrd)
  prmtop FILE            the prmtop with radii, in OUT
  model hct|obc1|obc2|gbn|gbn2
  salt_molar C           mol/L
  temperature_k T
  nonpolar 0|1           ACE on
  cutoff_a R             0: NoCutoff; > 0: CutoffNonPeriodic
  gb_energy E            polar GB energy
  nonpolar_energy E      ACE energy (0 without)
  forces N               followed by N lines "fx fy fz"
Run with /usr/bin/python3 (Debian's OpenMM 7.7 and ParmEd):
  tests/oracles/openmm_gb.py --out build/testdata
"""

import argparse
import os
import shutil
import warnings

import openmm
import openmm.app as app
import openmm.unit as unit
import parmed
import parmed.tools

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data')
KJ_PER_KCAL = 4.184
FORCE_KJNM_TO_KCALA = 1.0 / (KJ_PER_KCAL * 10.0)

MODELS = {  # name: (OpenMM's model, ParmEd's radius set)
    'hct': (app.HCT, 'mbondi'),
    'obc1': (app.OBC1, 'mbondi2'),
    'obc2': (app.OBC2, 'mbondi2'),
    'gbn': (app.GBn, 'bondi'),
    'gbn2': (app.GBn2, 'mbondi3'),
}


def cases():
    """(name, system, model, salt mol/L, ACE, cutoff A)"""
    out = []
    for system in ('ala2_vac', 'villin_vac'):
        for model in MODELS:
            out.append((system, model, 0.0, False, 0.0))
            out.append((system, model, 0.15, False, 0.0))
            out.append((system, model, 0.0, True, 0.0))
        out.append((system, 'obc2', 0.15, True, 0.0))
    # The cutoff (villin is ~35 A long): a custom model, the built-in OBC2
    # force, and GBn2 with salt and ACE.
    out.append(('villin_vac', 'hct', 0.0, False, 12.0))
    out.append(('villin_vac', 'obc2', 0.0, True, 12.0))
    out.append(('villin_vac', 'gbn2', 0.15, True, 12.0))
    named = []
    for system, model, salt, ace, cutoff in out:
        name = '%s_%s%s%s%s' % (system, model, '_salt' if salt else '', '_ace' if ace else '',
                                '_cut' if cutoff else '')
        named.append((name, system, model, salt, ace, cutoff))
    return named


def write_prmtops(out):
    for system in ('ala2_vac', 'villin_vac'):
        for radius_set in sorted({m[1] for m in MODELS.values()}):
            parm = parmed.load_file(os.path.join(DATA, system + '.prmtop'))
            parmed.tools.changeRadii(parm, radius_set).execute()
            parm.write_parm(os.path.join(out, 'gb_%s_%s.prmtop' % (system, radius_set)))


def evaluate(prmtop, positions, model, salt, ace, cutoff):
    kw = dict(implicitSolvent=MODELS[model][0], implicitSolventSaltConc=salt * unit.molar,
              temperature=300 * unit.kelvin, gbsaModel='ACE' if ace else None)
    if cutoff > 0:
        kw.update(nonbondedMethod=app.CutoffNonPeriodic, nonbondedCutoff=cutoff * unit.angstrom)
    # OpenMM warns when the file's radii differ from those it derives from
    # the topology (its mbondi3 and ParmEd's disagree on some atoms): kept
    # as a comment line of the case's file.
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        system = prmtop.createSystem(**kw)
    caught = sorted({str(x.message) for x in w if 'GB' in str(x.message)})
    # (SWIG hands out a new proxy per getForces call: compare indices.)
    gb = [k for k, f in enumerate(system.getForces())
          if isinstance(f, (openmm.CustomGBForce, openmm.GBSAOBCForce))]
    assert len(gb) == 1, 'expected one GB force, found %d' % len(gb)
    for k in range(system.getNumForces()):
        system.getForce(k).setForceGroup(1 if k == gb[0] else 0)
    ctx = openmm.Context(system, openmm.VerletIntegrator(1.0),
                         openmm.Platform.getPlatformByName('Reference'))
    ctx.setPositions(positions)
    st = ctx.getState(getEnergy=True, getForces=True, groups={1})
    e = st.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole) / KJ_PER_KCAL
    f = st.getForces(asNumpy=False).value_in_unit(unit.kilojoule_per_mole / unit.nanometer)
    return e, [(v.x * FORCE_KJNM_TO_KCALA, v.y * FORCE_KJNM_TO_KCALA, v.z * FORCE_KJNM_TO_KCALA)
               for v in f], type(system.getForce(gb[0])).__name__, caught


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    write_prmtops(args.out)
    names = []
    for name, system, model, salt, ace, cutoff in cases():
        fname = 'gb_%s_%s.prmtop' % (system, MODELS[model][1])
        prmtop = app.AmberPrmtopFile(os.path.join(args.out, fname))
        positions = app.AmberInpcrdFile(os.path.join(DATA, system + '.inpcrd')).positions
        e, forces, kind, caught = evaluate(prmtop, positions, model, salt, ace, cutoff)
        e_polar = e
        if ace:
            e_polar = evaluate(prmtop, positions, model, salt, False, cutoff)[0]
        with open(os.path.join(args.out, 'gb_%s.openmm.txt' % name), 'w') as fh:
            fh.write('# vkmd GB reference data. OpenMM %s (%s), platform Reference. '
                     'Units: kcal/mol, A, kcal/mol/A\n' % (openmm.__version__, kind))
            fh.write('# written by tests/oracles/openmm_gb.py (its docstring defines every key)\n')
            for msg in caught:
                fh.write('# OpenMM warned: %s\n' % msg)
            fh.write('system %s\nprmtop %s\nmodel %s\nsalt_molar %.17g\ntemperature_k 300\n'
                     'nonpolar %d\ncutoff_a %.17g\n' % (system, fname, model, salt, int(ace), cutoff))
            fh.write('gb_energy %.17e\nnonpolar_energy %.17e\n' % (e_polar, e - e_polar))
            fh.write('forces %d\n' % len(forces))
            for v in forces:
                fh.write('%.17e %.17e %.17e\n' % v)
        names.append(name)
        print('%s: %s, E_gb = %.6f, E_ace = %.6f kcal/mol' % (name, kind, e_polar, e - e_polar))
    with open(os.path.join(args.out, 'gb_cases.txt'), 'w') as fh:
        fh.write(''.join(n + '\n' for n in names))
    # The inpcrd beside the prmtops, so a case's files are one directory.
    for system in ('ala2_vac', 'villin_vac'):
        shutil.copy(os.path.join(DATA, system + '.inpcrd'), args.out)


if __name__ == '__main__':
    main()
