#!/usr/bin/python3
"""External check of vkmd's CPU reference force field: OpenMM reference data.

Builds small AMBER test systems with OpenMM's app layer (amber14-all +
amber14/tip3p, flexible water, no constraints), writes them as AMBER
prmtop/inpcrd with ParmEd, then RELOADS those files with OpenMM's own AMBER
reader and evaluates them on the Reference platform (double precision), so
the figures describe exactly the files vkmd reads. For each system NAME the
output directory receives NAME.prmtop, NAME.inpcrd and NAME.openmm.txt.

NAME.openmm.txt is plain text, one "key values..." record per line, '#'
starts a comment, in vkmd units (kcal/mol, A, kcal/mol/A):
  system NAME / atoms N / periodic 0|1 / box_a LX LY LZ / cutoff_a RC
  ewald_alpha_per_a A / pme_grid NX NY NZ / pme_order 5
  dispersion_correction 0|1 / net_charge Q
  energy TERM VALUE      (terms listed below)
  forces N               followed by N lines "fx fy fz"
Energy terms (all from OpenMM evaluations unless marked "derived"):
  bond, angle, dihedral  HarmonicBond/HarmonicAngle/PeriodicTorsion groups
  nonbonded              the whole NonbondedForce (direct + reciprocal)
  nonbonded_lj           LJ alone: charges and exception charges zeroed
                         (LJ pairs + scaled 1-4 LJ + dispersion correction)
  nonbonded_coulomb      nonbonded - nonbonded_lj (derived)
  lj_dispersion          long-range LJ correction: difference with
                         setUseDispersionCorrection(False)
  lj14, coulomb14        the scaled 1-4 pairs alone (NonbondedForce
                         exceptions with every particle's charge and epsilon
                         zeroed; split by zeroing the exception charges)
  coulomb_recip_group    OpenMM's reciprocal-space force group. OpenMM 7.7
                         puts the Ewald self energy in this group too.
  coulomb_self           -k alpha/sqrt(pi) sum q^2 with OpenMM's alpha and
                         charges (derived)
  coulomb_recip          coulomb_recip_group - coulomb_self (derived): the
                         PME reciprocal sum alone
  coulomb_net_charge_omitted  -k pi Q^2 / (2 V alpha^2) (derived): the
                         neutralizing-background term. OpenMM 7.7 does NOT
                         include it (checked: a lone ion in a box gives the
                         Madelung energy minus exactly this term), so it is
                         absent from every OpenMM figure above.
  total                  all force groups
Forces are the total force on each atom.

Modes:
  --out DIR                        the small committed systems (tests/data)
  --generated --out DIR            only villin_solv and villin_big (too large
                                   to commit; the ctest fixture runs this at
                                   test time)
  --system PRMTOP INPCRD --name NAME --out DIR
                                   evaluate an existing prmtop/inpcrd the
                                   same way (writes only NAME.openmm.txt)

Deterministic: Modeller.addSolvent places water from a fixed pre-equilibrated
box (deterministic) but picks the waters it replaces by ions with Python's
`random`, which is seeded before each system is built.
Run with /usr/bin/python3 (Debian's OpenMM and ParmEd).
"""

import argparse
import io
import math
import os
import random
import sys

import openmm
import openmm.app as app
import openmm.unit as unit
import parmed

KJ_PER_KCAL = 4.184
NM_PER_A = 0.1
# kJ/mol/nm -> kcal/mol/A
FORCE_KJNM_TO_KCALA = 1.0 / (KJ_PER_KCAL * 10.0)
CUTOFF_NM = 0.9
EWALD_TOLERANCE = 5e-4
PME_ORDER = 5  # OpenMM's PME uses 5th-order B-splines, not configurable
SEED = 20261122
FF_FILES = ('amber14-all.xml', 'amber14/tip3p.xml')
VILLIN_PDB = os.path.join(os.path.dirname(app.__file__), 'data', 'test.pdb')
ION_NAMES = {'NA', 'CL', 'Na+', 'Cl-', 'K', 'K+'}

# Force groups of the reloaded system; the reciprocal-space part of the
# NonbondedForce gets its own group.
GROUPS = {
    'HarmonicBondForce': ('bond', 0),
    'HarmonicAngleForce': ('angle', 1),
    'PeriodicTorsionForce': ('dihedral', 2),
    'NonbondedForce': ('nonbonded', 3),
}
RECIP_GROUP = 4


def forcefield():
    return app.ForceField(*FF_FILES)


# ---------------------------------------------------------------- builders
# Each returns (topology, positions, periodic). Positions carry units.

# OpenMM 7.7's addSolvent(boxSize=...) leaves clashing waters across the
# periodic boundary (O-O down to 1.8 A, LJ energy > +4000 kcal/mol for the
# 2.2 nm box): its edge filter misses them. Inside the box the closest O-O
# pair is 2.52 A, so removing every water whose oxygen is closer than this
# (minimum image) to an ion or an earlier kept oxygen removes exactly the
# boundary clashes.
MIN_OO_A = 2.5


def remove_boundary_clashes(modeller):
    box = [modeller.topology.getPeriodicBoxVectors()[d][d].value_in_unit(unit.angstrom)
           for d in range(3)]
    pos = modeller.positions.value_in_unit(unit.angstrom)
    # Kept oxygens (and every non-water atom) hashed into cells of at least
    # MIN_OO_A, so each water checks only the 27 cells around it.
    ncell = [max(1, int(box[d] // MIN_OO_A)) for d in range(3)]
    cells = {}

    def cell_of(p):
        return tuple(int(math.floor(p[d] / box[d] * ncell[d])) % ncell[d] for d in range(3))

    def dist2(a, b):
        s = 0.0
        for d in range(3):
            x = a[d] - b[d]
            x -= box[d] * round(x / box[d])
            s += x * x
        return s

    def add(p):
        cells.setdefault(cell_of(p), []).append(p)

    def clashes(p):
        c = cell_of(p)
        seen = set()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    key = ((c[0] + dx) % ncell[0], (c[1] + dy) % ncell[1], (c[2] + dz) % ncell[2])
                    if key in seen:
                        continue
                    seen.add(key)
                    if any(dist2(p, k) < MIN_OO_A ** 2 for k in cells.get(key, ())):
                        return True
        return False

    residues = list(modeller.topology.residues())
    for r in residues:
        if r.name != 'HOH':
            for a in r.atoms():
                add(pos[a.index])
    clashing = []
    for r in residues:
        if r.name != 'HOH':
            continue
        o = [pos[a.index] for a in r.atoms() if a.element == app.element.oxygen][0]
        if clashes(o):
            clashing.append(r)
        else:
            add(o)
    modeller.delete(clashing)
    print('  removed %d waters clashing across the box boundary' % len(clashing))


def build_water_box(ff):
    """About 350 TIP3P waters in a 2.2 nm cube (box >= 2 x cutoff)."""
    modeller = app.Modeller(app.Topology(), [])
    modeller.addSolvent(ff, model='tip3p', boxSize=openmm.Vec3(2.2, 2.2, 2.2) * unit.nanometer)
    remove_boundary_clashes(modeller)
    return modeller.topology, modeller.positions, True


def build_water_nacl(ff):
    """The same box with 1 M NaCl (a few Na+/Cl- pairs replace waters)."""
    modeller = app.Modeller(app.Topology(), [])
    modeller.addSolvent(ff, model='tip3p', boxSize=openmm.Vec3(2.2, 2.2, 2.2) * unit.nanometer,
                        ionicStrength=1.0 * unit.molar, neutralize=True)
    remove_boundary_clashes(modeller)
    return modeller.topology, modeller.positions, True


def build_water_na_charged(ff):
    """One Na+ at the centre of a 2.0 nm water box, no counter-ion: net
    charge +1, to pin down OpenMM's treatment of non-neutral PME systems."""
    top = app.Topology()
    chain = top.addChain()
    res = top.addResidue('NA', chain)
    top.addAtom('NA', app.element.sodium, res)
    modeller = app.Modeller(top, [openmm.Vec3(1.0, 1.0, 1.0)] * unit.nanometer)
    modeller.addSolvent(ff, model='tip3p', boxSize=openmm.Vec3(2.0, 2.0, 2.0) * unit.nanometer,
                        neutralize=False)
    remove_boundary_clashes(modeller)
    return modeller.topology, modeller.positions, True


def villin_modeller():
    pdb = app.PDBFile(VILLIN_PDB)
    return app.Modeller(pdb.topology, pdb.positions)


def build_villin_vac(ff):
    """Villin headpiece (test.pdb) without water and ions, in vacuum."""
    modeller = villin_modeller()
    modeller.deleteWater()
    modeller.delete([r for r in modeller.topology.residues() if r.name in ION_NAMES])
    modeller.topology.setPeriodicBoxVectors(None)
    return modeller.topology, modeller.positions, False


def build_villin_solv(ff):
    """test.pdb as shipped: villin, 2 Cl-, 2761 waters, orthorhombic box."""
    modeller = villin_modeller()
    return modeller.topology, modeller.positions, True


COMMITTED = [
    ('water_box', build_water_box),
    ('water_nacl', build_water_nacl),
    ('water_na_charged', build_water_na_charged),
    ('villin_vac', build_villin_vac),
]
def build_villin_big(ff):
    """Villin solvated in a 6.0 nm cube of TIP3P with 0.15 M NaCl (about
    21,000 atoms): the ~20k-atom solvated protein of the GPU tests."""
    modeller = villin_modeller()
    modeller.deleteWater()
    modeller.delete([r for r in modeller.topology.residues() if r.name in ION_NAMES])
    modeller.addSolvent(ff, model='tip3p', boxSize=openmm.Vec3(6.0, 6.0, 6.0) * unit.nanometer,
                        ionicStrength=0.15 * unit.molar, neutralize=True)
    remove_boundary_clashes(modeller)
    return modeller.topology, modeller.positions, True


GENERATED = [('villin_solv', build_villin_solv), ('villin_big', build_villin_big)]


# ----------------------------------------------------------- file writing

def write_amber(ff, topology, positions, periodic, prmtop_path, inpcrd_path):
    """Parameterizes with the force field, writes prmtop + inpcrd and
    returns the force-field System (for the round-trip check)."""
    method = app.PME if periodic else app.NoCutoff
    system = ff.createSystem(topology, nonbondedMethod=method,
                             nonbondedCutoff=CUTOFF_NM * unit.nanometer, constraints=None,
                             rigidWater=False)
    structure = parmed.openmm.load_topology(topology, system, xyz=positions)
    if periodic:
        # Orthorhombic box only (vkmd does not handle triclinic boxes).
        a, b, c = [v.value_in_unit(unit.angstrom) for v in topology.getPeriodicBoxVectors()]
        assert abs(a[1]) + abs(a[2]) + abs(b[0]) + abs(b[2]) + abs(c[0]) + abs(c[1]) < 1e-9
        structure.box = [a[0], b[1], c[2], 90.0, 90.0, 90.0]
    else:
        structure.box = None
    structure.save(prmtop_path, format='amber', overwrite=True)
    # ParmEd stamps the prmtop with the current date; a fixed stamp keeps the
    # committed files reproducible byte for byte.
    with open(prmtop_path) as f:
        lines = f.readlines()
    assert lines[0].startswith('%VERSION')
    lines[0] = '%VERSION  VERSION_STAMP = V0001.000  DATE = 01/01/00  00:00:00\n'
    with open(prmtop_path, 'w') as f:
        f.writelines(lines)
    structure.save(inpcrd_path, format='rst7', overwrite=True)
    return system


# ------------------------------------------------------------- evaluation

def energy_kcal(context, groups):
    state = context.getState(getEnergy=True, groups=groups)
    return state.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole) / KJ_PER_KCAL


def make_context(system, positions, box):
    platform = openmm.Platform.getPlatformByName('Reference')
    context = openmm.Context(system, openmm.VerletIntegrator(0.001), platform)
    if box is not None:
        context.setPeriodicBoxVectors(*box)
    context.setPositions(positions)
    return context


def copy_system(system):
    return openmm.XmlSerializer.deserialize(openmm.XmlSerializer.serialize(system))


def nonbonded_of(system):
    return [f for f in system.getForces() if isinstance(f, openmm.NonbondedForce)][0]


def mask_bits(*groups):
    return sum(1 << g for g in groups)


def evaluate(prmtop_path, inpcrd_path):
    """Loads prmtop/inpcrd with OpenMM's AMBER reader and computes every
    figure of the .openmm.txt file. Returns a dict."""
    prmtop = app.AmberPrmtopFile(prmtop_path)
    inpcrd = app.AmberInpcrdFile(inpcrd_path)
    periodic = inpcrd.boxVectors is not None
    method = app.PME if periodic else app.NoCutoff
    system = prmtop.createSystem(nonbondedMethod=method,
                                 nonbondedCutoff=CUTOFF_NM * unit.nanometer, constraints=None,
                                 rigidWater=False, ewaldErrorTolerance=EWALD_TOLERANCE)
    # Only the four AMBER terms (plus the zero-energy CM motion remover) are
    # expected; anything else (e.g. an NBFIX CustomNonbondedForce) would
    # change what "nonbonded" means.
    for i in reversed(range(system.getNumForces())):
        force = system.getForce(i)
        name = type(force).__name__
        if name == 'CMMotionRemover':
            system.removeForce(i)
        elif name in GROUPS:
            force.setForceGroup(GROUPS[name][1])
        else:
            raise SystemExit('%s: unexpected force %s' % (prmtop_path, name))
    nb = nonbonded_of(system)
    if periodic:
        nb.setUseDispersionCorrection(True)
        nb.setReciprocalSpaceForceGroup(RECIP_GROUP)
        assert nb.getNonbondedMethod() == openmm.NonbondedForce.PME
    box = inpcrd.boxVectors if periodic else None
    positions = inpcrd.positions

    out = {'atoms': system.getNumParticles(), 'periodic': periodic}
    ctx = make_context(system, positions, box)
    e = {}
    for name, (term, group) in GROUPS.items():
        e[term] = energy_kcal(ctx, mask_bits(group))
    e['total'] = energy_kcal(ctx, -1)
    if periodic:
        e['coulomb_recip_group'] = energy_kcal(ctx, mask_bits(RECIP_GROUP))
        e['nonbonded'] += e['coulomb_recip_group']
        alpha_nm, nx, ny, nz = nb.getPMEParametersInContext(ctx)
        out['alpha_per_a'] = alpha_nm * NM_PER_A
        out['grid'] = (nx, ny, nz)
        out['box_a'] = [box[d][d].value_in_unit(unit.angstrom) for d in range(3)]
        volume_a3 = out['box_a'][0] * out['box_a'][1] * out['box_a'][2]
    state = ctx.getState(getForces=True)
    forces = state.getForces(asNumpy=False).value_in_unit(unit.kilojoule_per_mole / unit.nanometer)
    out['forces'] = [[c * FORCE_KJNM_TO_KCALA for c in f] for f in forces]
    del ctx

    # The charges OpenMM actually used (e) and the Coulomb constant it uses.
    charges = [nb.getParticleParameters(i)[0].value_in_unit(unit.elementary_charge)
               for i in range(nb.getNumParticles())]
    out['net_charge'] = sum(charges)
    coulomb_k = 138.935457644382 * 10.0 / KJ_PER_KCAL  # kcal/mol A e^-2 (ONE_4PI_EPS0)

    nb_groups = mask_bits(3, RECIP_GROUP) if periodic else mask_bits(3)

    # LJ alone: zero every charge and exception charge product.
    lj_sys = copy_system(system)
    lj_nb = nonbonded_of(lj_sys)
    for i in range(lj_nb.getNumParticles()):
        q, sig, eps = lj_nb.getParticleParameters(i)
        lj_nb.setParticleParameters(i, 0.0, sig, eps)
    for i in range(lj_nb.getNumExceptions()):
        a, b, qq, sig, eps = lj_nb.getExceptionParameters(i)
        lj_nb.setExceptionParameters(i, a, b, 0.0, sig, eps)
    ctx = make_context(lj_sys, positions, box)
    e['nonbonded_lj'] = energy_kcal(ctx, nb_groups)
    del ctx
    e['nonbonded_coulomb'] = e['nonbonded'] - e['nonbonded_lj']

    # Dispersion correction: the same evaluation with it switched off.
    if periodic:
        lj_nb.setUseDispersionCorrection(False)
        ctx = make_context(lj_sys, positions, box)
        e['lj_dispersion'] = e['nonbonded_lj'] - energy_kcal(ctx, nb_groups)
        del ctx
    else:
        e['lj_dispersion'] = 0.0

    # 1-4 pairs alone: particles without charge or LJ leave only the
    # exceptions (with zero charges the PME exclusion correction vanishes).
    p14_sys = copy_system(system)
    p14_nb = nonbonded_of(p14_sys)
    for i in range(p14_nb.getNumParticles()):
        q, sig, eps = p14_nb.getParticleParameters(i)
        p14_nb.setParticleParameters(i, 0.0, sig, 0.0)
    ctx = make_context(p14_sys, positions, box)
    e14 = energy_kcal(ctx, nb_groups)
    del ctx
    for i in range(p14_nb.getNumExceptions()):
        a, b, qq, sig, eps = p14_nb.getExceptionParameters(i)
        p14_nb.setExceptionParameters(i, a, b, 0.0, sig, eps)
    ctx = make_context(p14_sys, positions, box)
    e['lj14'] = energy_kcal(ctx, nb_groups)
    del ctx
    e['coulomb14'] = e14 - e['lj14']

    if periodic:
        alpha = out['alpha_per_a']
        e['coulomb_self'] = -coulomb_k * alpha / math.sqrt(math.pi) * sum(q * q for q in charges)
        e['coulomb_recip'] = e['coulomb_recip_group'] - e['coulomb_self']
        e['coulomb_net_charge_omitted'] = 0.0 - (coulomb_k * math.pi * out['net_charge'] ** 2 /
                                           (2.0 * volume_a3 * alpha * alpha))
    out['energy'] = e
    return out


ENERGY_ORDER = ['bond', 'angle', 'dihedral', 'nonbonded', 'nonbonded_lj', 'nonbonded_coulomb',
                'lj_dispersion', 'lj14', 'coulomb14', 'coulomb_recip_group', 'coulomb_self',
                'coulomb_recip', 'coulomb_net_charge_omitted', 'total']


def format_report(name, r):
    s = io.StringIO()
    s.write('# vkmd OpenMM reference data. OpenMM %s, platform Reference. '
            'Units: kcal/mol, A, kcal/mol/A\n' % openmm.Platform.getOpenMMVersion())
    s.write('# written by tests/oracles/openmm_reference.py with ParmEd %s (its docstring defines '
            'every key)\n' % parmed.__version__)
    s.write('system %s\n' % name)
    s.write('atoms %d\n' % r['atoms'])
    s.write('periodic %d\n' % (1 if r['periodic'] else 0))
    if r['periodic']:
        s.write('box_a %.10f %.10f %.10f\n' % tuple(r['box_a']))
        s.write('cutoff_a %.10f\n' % (CUTOFF_NM / NM_PER_A))
        s.write('ewald_tolerance %g\n' % EWALD_TOLERANCE)
        s.write('ewald_alpha_per_a %.17g\n' % r['alpha_per_a'])
        s.write('pme_grid %d %d %d\n' % r['grid'])
        s.write('pme_order %d\n' % PME_ORDER)
        s.write('dispersion_correction 1\n')
    else:
        s.write('# no box: no cutoff, plain Coulomb over all pairs\n')
        s.write('dispersion_correction 0\n')
    s.write('net_charge %.10f\n' % r['net_charge'])
    for term in ENERGY_ORDER:
        if term in r['energy']:
            s.write('energy %s %.12e\n' % (term, r['energy'][term]))
    s.write('forces %d\n' % len(r['forces']))
    for f in r['forces']:
        s.write('%.12e %.12e %.12e\n' % tuple(f))
    return s.getvalue()


def write_report(out_dir, name, r):
    path = os.path.join(out_dir, name + '.openmm.txt')
    with open(path, 'w') as f:
        f.write(format_report(name, r))
    e = r['energy']
    print('%s: %d atoms, total %.6f kcal/mol (bond %.6f angle %.6f dihedral %.6f nonbonded %.6f)'
          % (name, r['atoms'], e['total'], e['bond'], e['angle'], e['dihedral'], e['nonbonded']))
    if r['periodic']:
        print('  alpha %.10f 1/A, grid %d %d %d, net charge %.6f' %
              ((r['alpha_per_a'],) + r['grid'] + (r['net_charge'],)))


def build_and_evaluate(ff, name, builder, out_dir):
    random.seed(SEED)  # addSolvent picks the waters replaced by ions at random
    topology, positions, periodic = builder(ff)
    prmtop_path = os.path.join(out_dir, name + '.prmtop')
    inpcrd_path = os.path.join(out_dir, name + '.inpcrd')
    system = write_amber(ff, topology, positions, periodic, prmtop_path, inpcrd_path)

    # Sanity check of the ParmEd round trip: the force-field system and the
    # reloaded file must agree up to the rounding of the written numbers
    # (coordinates to 1e-7 A, parameters to 9 digits): observed 1e-6..1e-5.
    r = evaluate(prmtop_path, inpcrd_path)
    if periodic:
        nonbonded_of(system).setUseDispersionCorrection(True)
    box = topology.getPeriodicBoxVectors() if periodic else None
    ctx = make_context(system, positions, box)
    e_ff = energy_kcal(ctx, -1)
    del ctx
    diff = abs(e_ff - r['energy']['total'])
    print('  round trip: force-field system %.6f, reloaded file %.6f kcal/mol (|diff| %.2e)'
          % (e_ff, r['energy']['total'], diff))
    if diff > max(1e-4, 1e-7 * abs(e_ff)):
        raise SystemExit('%s: the prmtop/inpcrd round trip changed the energy' % name)
    write_report(out_dir, name, r)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', required=True, help='output directory')
    parser.add_argument('--generated', action='store_true',
                        help='write only the large systems built at test time (villin_solv)')
    parser.add_argument('--system', nargs=2, metavar=('PRMTOP', 'INPCRD'),
                        help='evaluate an existing prmtop/inpcrd (needs --name)')
    parser.add_argument('--name', help='system name for --system')
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    if args.system:
        if not args.name:
            parser.error('--system needs --name')
        write_report(args.out, args.name, evaluate(*args.system))
        return 0
    ff = forcefield()
    for name, builder in (GENERATED if args.generated else COMMITTED):
        build_and_evaluate(ff, name, builder, args.out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
