#!/usr/bin/python3
"""External check of vkmd's CHARMM terms (chamber prmtops, CMAP, Urey-Bradley,
harmonic impropers, 1-4 LJ tables): OpenMM reference data.

Builds the alanine dipeptide (ACE-ALA-NME as CHARMM's ALAD residue, the
standard coordinates embedded below) with OpenMM's charmm36.xml, in vacuum
(ala2_charmm: the CMAP peptide) and in a rectangular box of CHARMM TIP3P
water (ala2_charmm_solv), writes each as a chamber prmtop + inpcrd with
ParmEd, reloads the files through ParmEd (OpenMM 7.7's AmberPrmtopFile
refuses chamber files) and evaluates them on the Reference platform. A third
system, ala2_amber_cmap, is the AMBER form of CMAP (ff19SB's CMAP_*
sections, see build_amber_cmap), read by OpenMM's own AmberPrmtopFile. The
NAME.openmm.txt format is tests/oracles/openmm_reference.py's, with three
more energy terms:
  urey_bradley       ParmEd's Urey-Bradley HarmonicBondForce group
  improper_harmonic  the CHARMM harmonic impropers (CustomTorsionForce)
  cmap               CMAPTorsionForce
('dihedral' is the PeriodicTorsionForce group, as there.)

ParmEd 3.4.3 cannot read two things out of OpenMM's charmm36 System, which
are set here by hand before saving:
- charmm36.xml puts Lennard-Jones in a CustomNonbondedForce (type tables)
  and the 1-4 LJ in a CustomBondForce; ParmEd skips both, so every atom's
  sigma/epsilon and sigma14/epsilon14 come from the XML's LennardJonesForce
  records through the matched residue templates (no NBFIX pair occurs in
  these systems; checked: the script refuses one), and the 1-4 exceptions
  ParmEd made (with the LJ part zero) are dropped so that it writes the
  LENNARD_JONES_14 tables from those.
- the Urey-Bradley terms are a second HarmonicBondForce over 1-3 pairs,
  which ParmEd would write as bonds: they are moved to urey_bradleys.
Second check: the reloaded file's total energy against OpenMM's own
evaluation of the charmm36.xml System on the same coordinates (with the
dispersion correction switched the same way).

Usage: openmm_charmm.py --out DIR. Run with /usr/bin/python3.
"""

import argparse
import os
import random
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import openmm_reference as base  # noqa: E402

import openmm  # noqa: E402
import openmm.app as app  # noqa: E402
import openmm.unit as unit  # noqa: E402
import parmed  # noqa: E402

FF_FILES = ('charmm36.xml', 'charmm36/water.xml')
DATA_DIR = os.path.join(os.path.dirname(app.__file__), 'data')
BOX_NM = 2.8  # wider than 3 x the 0.9 nm cutoff
JIGGLE_A = 0.15
# ParmEd's force groups take 0..12 (its IMPROPER group is
# openmm_reference.py's reciprocal-space group 4): the reciprocal part goes here.
RECIP_GROUP = 20

# ACE-ALA-NME (OpenMM's alanine dipeptide coordinates, A) as one residue
# with the atom names of charmm36.xml's ALAD template.
ALAD = [
    ('HL1', 'H', 2.000, 1.000, -0.000), ('CL', 'C', 2.000, 2.090, 0.000),
    ('HL2', 'H', 1.486, 2.454, 0.890), ('HL3', 'H', 1.486, 2.454, -0.890),
    ('CLP', 'C', 3.427, 2.641, -0.000), ('OL', 'O', 4.391, 1.877, -0.000),
    ('NL', 'N', 3.555, 3.970, -0.000), ('HL', 'H', 2.733, 4.556, -0.000),
    ('CA', 'C', 4.853, 4.614, -0.000), ('HA', 'H', 5.408, 4.316, 0.890),
    ('CB', 'C', 5.661, 4.221, -1.232), ('HB1', 'H', 5.123, 4.521, -2.131),
    ('HB2', 'H', 6.630, 4.719, -1.206), ('HB3', 'H', 5.809, 3.141, -1.241),
    ('CRP', 'C', 4.713, 6.129, 0.000), ('OR', 'O', 3.601, 6.653, 0.000),
    ('NR', 'N', 5.846, 6.835, 0.000), ('HR', 'H', 6.737, 6.359, -0.000),
    ('CR', 'C', 5.846, 8.284, 0.000), ('HR1', 'H', 4.819, 8.648, 0.000),
    ('HR2', 'H', 6.360, 8.648, 0.890), ('HR3', 'H', 6.360, 8.648, -0.890),
]
ALAD_BONDS = [('HL1', 'CL'), ('CL', 'HL2'), ('CL', 'HL3'), ('CL', 'CLP'), ('CLP', 'OL'),
              ('CLP', 'NL'), ('NL', 'HL'), ('NL', 'CA'), ('CA', 'HA'), ('CA', 'CB'), ('CB', 'HB1'),
              ('CB', 'HB2'), ('CB', 'HB3'), ('CA', 'CRP'), ('CRP', 'OR'), ('CRP', 'NR'), ('NR', 'HR'),
              ('NR', 'CR'), ('CR', 'HR1'), ('CR', 'HR2'), ('CR', 'HR3')]


def build_alad():
    top = app.Topology()
    res = top.addResidue('ALA', top.addChain())
    atoms = {}
    pos = []
    # A fixed jiggle takes phi and psi off the CMAP grid points (the
    # embedded structure sits at phi = psi = 180 degrees, a grid corner).
    rng = random.Random(base.SEED)
    for name, el, x, y, z in ALAD:
        atoms[name] = top.addAtom(name, app.element.get_by_symbol(el), res)
        pos.append(openmm.Vec3(*[c + rng.uniform(-JIGGLE_A, JIGGLE_A) for c in (x, y, z)]))
    for a, b in ALAD_BONDS:
        top.addBond(atoms[a], atoms[b])
    return top, pos * unit.angstrom


def build_vac(ff):
    top, pos = build_alad()
    return top, pos, False


def build_solv(ff):
    """The dipeptide at the centre of a BOX_NM cube of water: the box is
    filled first and waters with an atom within 2.5 A of the peptide are
    removed (addSolvent itself cannot choose between the ALAD and AANM
    templates for the solute)."""
    top, pos = build_alad()
    water = app.Modeller(app.Topology(), [])
    water.addSolvent(ff, model='tip3p', boxSize=openmm.Vec3(BOX_NM, BOX_NM, BOX_NM) *
                     unit.nanometer)
    xyz = pos.value_in_unit(unit.angstrom)
    centre = [sum(p[d] for p in xyz) / len(xyz) for d in range(3)]
    shift = [BOX_NM * 5.0 - centre[d] for d in range(3)]
    solute = [[p[d] + shift[d] for d in range(3)] for p in xyz]
    wpos = water.positions.value_in_unit(unit.angstrom)
    near = []
    for r in water.topology.residues():
        if any(sum((wpos[a.index][d] - q[d]) ** 2 for d in range(3)) < 2.5 ** 2
               for a in r.atoms() for q in solute):
            near.append(r)
    water.delete(near)
    modeller = app.Modeller(top, [openmm.Vec3(*p) for p in solute] * unit.angstrom)
    modeller.add(water.topology, water.positions)
    modeller.topology.setPeriodicBoxVectors(water.topology.getPeriodicBoxVectors())
    base.remove_boundary_clashes(modeller)
    return modeller.topology, modeller.positions, True


SYSTEMS = [('ala2_charmm', build_vac), ('ala2_charmm_solv', build_solv)]


def templates_for(ff, topology):
    return {r: 'ALAD' for r in topology.residues() if r.name == 'ALA'}


def lj_table():
    """type -> (sigma A, epsilon kcal/mol, sigma14 A, epsilon14 kcal/mol), and
    the NBFIX type pairs, from the XML files."""
    types, nbfix = {}, set()
    for fname in FF_FILES:
        root = ET.parse(os.path.join(DATA_DIR, fname)).getroot()
        for lj in root.iter('LennardJonesForce'):
            for a in lj.iter('Atom'):
                sig = float(a.get('sigma')) * 10.0
                eps = float(a.get('epsilon')) / base.KJ_PER_KCAL
                sig14 = float(a.get('sigma14', a.get('sigma'))) * 10.0
                eps14 = float(a.get('epsilon14', a.get('epsilon'))) / base.KJ_PER_KCAL
                types[a.get('type')] = (sig, eps, sig14, eps14)
            for p in lj.iter('NBFixPair'):
                nbfix.add(frozenset((p.get('type1'), p.get('type2'))))
    return types, nbfix


def structure_of(ff, topology, positions, system):
    """The ParmEd structure of the charmm36 System with LJ and Urey-Bradley
    restored (see the module docstring)."""
    s = parmed.openmm.load_topology(topology, system, xyz=positions)
    # Atom types through the matched templates (same order as residues).
    lj, nbfix = lj_table()
    # ALAD and AANM match the capped residue equally; the System was built
    # with ALAD (residueTemplates), the water with HOH.
    type_of = []
    for res in topology.residues():
        if res.name == 'ALA':
            by_name = {a.name: a.type for a in ff._templates['ALAD'].atoms}
            type_of += [by_name[a.name] for a in res.atoms()]
        else:
            by_el = {a.element: a.type for a in ff._templates['TIP3'].atoms}
            type_of += [by_el[a.element] for a in res.atoms()]
    used = set(type_of)
    for pair in nbfix:
        if pair <= used:
            raise SystemExit('NBFIX pair %s occurs: ParmEd would drop it' % sorted(pair))
    for atom, ty in zip(s.atoms, type_of):
        sig, eps, sig14, eps14 = lj[ty]
        atom.type = ty
        atom.atom_type = parmed.AtomType(ty, None, atom.mass, atom.atomic_number)
        atom.atom_type.set_lj_params(eps, sig * 2 ** (1 / 6) / 2, eps14, sig14 * 2 ** (1 / 6) / 2)
        atom.sigma, atom.epsilon, atom.sigma_14, atom.epsilon_14 = sig, eps, sig14, eps14
    # The 1-4 pairs: load_topology made "adjusts" of the NonbondedForce
    # exceptions, whose LJ part is zero here (it is in the CustomBondForce);
    # without them ParmEd writes the 1-4 tables from sigma14/epsilon14.
    del s.adjusts[:]
    del s.adjust_types[:]
    # Urey-Bradley: "bonds" between atoms the topology does not bond.
    real = {frozenset((b[0].index, b[1].index)) for b in topology.bonds()}
    for b in list(s.bonds):
        if frozenset((b.atom1.idx, b.atom2.idx)) in real:
            continue
        s.bonds.remove(b)
        b.atom1.bonds.remove(b)
        b.atom2.bonds.remove(b)
        ty = parmed.BondType(b.type.k, b.type.req, list=s.urey_bradley_types)
        s.urey_bradley_types.append(ty)
        s.urey_bradleys.append(parmed.UreyBradley(b.atom1, b.atom2, type=ty))
    s.urey_bradley_types.claim()
    print('  %d bonds, %d Urey-Bradley, %d impropers, %d CMAP, %d dihedrals' %
          (len(s.bonds), len(s.urey_bradleys), len(s.impropers), len(s.cmaps), len(s.dihedrals)))
    return s


def evaluate(prmtop_path, inpcrd_path):
    """Loads the chamber files through ParmEd and computes every figure."""
    p = parmed.load_file(prmtop_path, inpcrd_path)
    periodic = p.box is not None
    method = app.PME if periodic else app.NoCutoff
    system = p.createSystem(nonbondedMethod=method,
                            nonbondedCutoff=base.CUTOFF_NM * unit.nanometer, constraints=None,
                            rigidWater=False, ewaldErrorTolerance=base.EWALD_TOLERANCE)
    groups = {p.BOND_FORCE_GROUP: 'bond', p.ANGLE_FORCE_GROUP: 'angle',
              p.DIHEDRAL_FORCE_GROUP: 'dihedral', p.UREY_BRADLEY_FORCE_GROUP: 'urey_bradley',
              p.IMPROPER_FORCE_GROUP: 'improper_harmonic', p.CMAP_FORCE_GROUP: 'cmap',
              p.NONBONDED_FORCE_GROUP: 'nonbonded'}
    return evaluate_system(system, groups, p.NONBONDED_FORCE_GROUP, p.positions,
                           p.box_vectors if periodic else None, prmtop_path)


def evaluate_system(system, groups, nbg, positions, box, what):
    """Every figure of the .openmm.txt file for `system` whose forces carry
    the groups of `groups` (group -> term name; nbg the NonbondedForce's)."""
    periodic = box is not None
    for i in reversed(range(system.getNumForces())):
        f = system.getForce(i)
        if type(f).__name__ == 'CMMotionRemover':
            system.removeForce(i)
        elif f.getForceGroup() not in groups:
            raise SystemExit('%s: unexpected force %s' % (what, type(f).__name__))
    nb = base.nonbonded_of(system)
    if periodic:
        nb.setUseDispersionCorrection(True)
        nb.setReciprocalSpaceForceGroup(RECIP_GROUP)
    out = {'atoms': system.getNumParticles(), 'periodic': periodic}
    ctx = base.make_context(system, positions, box)
    e = {}
    for g, term in groups.items():
        e[term] = base.energy_kcal(ctx, base.mask_bits(g))
    e['total'] = base.energy_kcal(ctx, -1)
    if periodic:
        e['coulomb_recip_group'] = base.energy_kcal(ctx, base.mask_bits(RECIP_GROUP))
        e['nonbonded'] += e['coulomb_recip_group']
        alpha_nm, nx, ny, nz = nb.getPMEParametersInContext(ctx)
        out['alpha_per_a'] = alpha_nm * base.NM_PER_A
        out['grid'] = (nx, ny, nz)
        out['box_a'] = [box[d][d].value_in_unit(unit.angstrom) for d in range(3)]
    forces = ctx.getState(getForces=True).getForces(asNumpy=False).value_in_unit(
        unit.kilojoule_per_mole / unit.nanometer)
    out['forces'] = [[c * base.FORCE_KJNM_TO_KCALA for c in f] for f in forces]
    del ctx
    charges = [nb.getParticleParameters(i)[0].value_in_unit(unit.elementary_charge)
               for i in range(nb.getNumParticles())]
    out['net_charge'] = sum(charges)
    nb_groups = base.mask_bits(nbg, RECIP_GROUP) if periodic else base.mask_bits(nbg)

    lj_sys = base.copy_system(system)
    lj_nb = base.nonbonded_of(lj_sys)
    for i in range(lj_nb.getNumParticles()):
        q, sig, eps = lj_nb.getParticleParameters(i)
        lj_nb.setParticleParameters(i, 0.0, sig, eps)
    for i in range(lj_nb.getNumExceptions()):
        a, b, qq, sig, eps = lj_nb.getExceptionParameters(i)
        lj_nb.setExceptionParameters(i, a, b, 0.0, sig, eps)
    ctx = base.make_context(lj_sys, positions, box)
    e['nonbonded_lj'] = base.energy_kcal(ctx, nb_groups)
    del ctx
    e['nonbonded_coulomb'] = e['nonbonded'] - e['nonbonded_lj']
    if periodic:
        lj_nb.setUseDispersionCorrection(False)
        ctx = base.make_context(lj_sys, positions, box)
        e['lj_dispersion'] = e['nonbonded_lj'] - base.energy_kcal(ctx, nb_groups)
        del ctx
    else:
        e['lj_dispersion'] = 0.0
    p14_sys = base.copy_system(system)
    p14_nb = base.nonbonded_of(p14_sys)
    for i in range(p14_nb.getNumParticles()):
        q, sig, eps = p14_nb.getParticleParameters(i)
        p14_nb.setParticleParameters(i, 0.0, sig, 0.0)
    ctx = base.make_context(p14_sys, positions, box)
    e14 = base.energy_kcal(ctx, nb_groups)
    del ctx
    for i in range(p14_nb.getNumExceptions()):
        a, b, qq, sig, eps = p14_nb.getExceptionParameters(i)
        p14_nb.setExceptionParameters(i, a, b, 0.0, sig, eps)
    ctx = base.make_context(p14_sys, positions, box)
    e['lj14'] = base.energy_kcal(ctx, nb_groups)
    del ctx
    e['coulomb14'] = e14 - e['lj14']
    if periodic:
        import math
        coulomb_k = 138.935457644382 * 10.0 / base.KJ_PER_KCAL
        alpha = out['alpha_per_a']
        vol = out['box_a'][0] * out['box_a'][1] * out['box_a'][2]
        e['coulomb_self'] = -coulomb_k * alpha / math.sqrt(math.pi) * sum(q * q for q in charges)
        e['coulomb_recip'] = e['coulomb_recip_group'] - e['coulomb_self']
        e['coulomb_net_charge_omitted'] = -(coulomb_k * math.pi * out['net_charge'] ** 2 /
                                            (2.0 * vol * alpha * alpha))
    out['energy'] = e
    return out


def build_and_evaluate(ff, name, builder, out_dir):
    topology, positions, periodic = builder(ff)
    method = app.PME if periodic else app.NoCutoff
    system = ff.createSystem(topology, nonbondedMethod=method,
                             nonbondedCutoff=base.CUTOFF_NM * unit.nanometer, constraints=None,
                             rigidWater=False, ewaldErrorTolerance=base.EWALD_TOLERANCE,
                             residueTemplates=templates_for(ff, topology))
    s = structure_of(ff, topology, positions, system)
    if periodic:
        a, b, c = [v.value_in_unit(unit.angstrom) for v in topology.getPeriodicBoxVectors()]
        s.box = [a[0], b[1], c[2], 90.0, 90.0, 90.0]
    else:
        s.box = None
    prmtop_path = os.path.join(out_dir, name + '.prmtop')
    inpcrd_path = os.path.join(out_dir, name + '.inpcrd')
    s.save(prmtop_path, format='amber', overwrite=True)
    s.save(inpcrd_path, format='rst7', overwrite=True)
    with open(prmtop_path) as f:
        head = f.read(4096)
    assert '%FLAG CTITLE' in head, 'ParmEd did not write a chamber file'
    r = evaluate(prmtop_path, inpcrd_path)
    # Second check: OpenMM's own charmm36 System on the same coordinates.
    # (charmm36.xml's LJ is a CustomNonbondedForce; its long-range
    # correction is the dispersion correction the reloaded file uses.)
    for f in system.getForces():
        if periodic and isinstance(f, openmm.CustomNonbondedForce):
            f.setUseLongRangeCorrection(True)
        elif periodic and isinstance(f, openmm.NonbondedForce):
            f.setUseDispersionCorrection(True)
    box = topology.getPeriodicBoxVectors() if periodic else None
    ctx = base.make_context(system, parmed.load_file(prmtop_path, inpcrd_path).positions, box)
    e_ff = base.energy_kcal(ctx, -1)
    del ctx
    diff = abs(e_ff - r['energy']['total'])
    print('  charmm36.xml System %.6f, reloaded chamber file %.6f kcal/mol (|diff| %.2e)'
          % (e_ff, r['energy']['total'], diff))
    if diff > max(2e-3, 1e-6 * abs(e_ff)):
        raise SystemExit('%s: the chamber file does not reproduce the charmm36 System' % name)
    base.write_report(out_dir, name, r)


# The same dipeptide under amber14-all.xml's names (the order of ALAD).
AMBER_NAMES = [('ACE', n) for n in ('H1', 'CH3', 'H2', 'H3', 'C', 'O')] + \
    [('ALA', n) for n in ('N', 'H', 'CA', 'HA', 'CB', 'HB1', 'HB2', 'HB3', 'C', 'O')] + \
    [('NME', n) for n in ('N', 'H', 'C', 'H1', 'H2', 'H3')]
# CMAP terms (1-based atoms i, j, k, l, m and the map): the backbone's
# phi = C(ACE)-N-CA-C, psi = N-CA-C-N(NME), then quintets of bonded atoms
# that put (phi, psi) elsewhere on the map, so that a transposed or shifted
# grid could not go unnoticed.
AMBER_CMAP_INDEX = [(5, 7, 9, 15, 17, 1), (1, 2, 5, 7, 9, 1), (2, 5, 7, 9, 11, 1),
                    (8, 7, 9, 11, 12, 1), (9, 15, 17, 19, 20, 1), (10, 9, 15, 16, 17, 1),
                    (3, 2, 5, 6, 7, 1)]


def build_amber_cmap(out_dir, grid_source):
    """ala2_amber_cmap: the dipeptide with amber14-all.xml written by ParmEd
    as a plain AMBER prmtop, plus the CMAP sections AMBER's ff19SB files
    carry (CMAP_COUNT, CMAP_RESOLUTION, CMAP_PARAMETER_01 as tleap formats
    it, 8F9.5, CMAP_INDEX) holding charmm36's alanine map taken from the
    chamber file `grid_source`, on the backbone and six other quintets
    (AMBER_CMAP_INDEX); evaluated through OpenMM's own AmberPrmtopFile (no
    ParmEd on the reading side). The backbone term's energy must equal the
    chamber file's through ParmEd (same coordinates, same map): OpenMM's two
    readers agree on the grid's layout."""
    _, pos = build_alad()
    top = app.Topology()
    chain = top.addChain()
    residues, atoms = {}, []
    for (rname, aname), (_, el, *_xyz) in zip(AMBER_NAMES, ALAD):
        if rname not in residues:
            residues[rname] = top.addResidue(rname, chain)
        atoms.append(top.addAtom(aname, app.element.get_by_symbol(el), residues[rname]))
    index = {name: k for k, (name, *_rest) in enumerate(ALAD)}
    for a, b in ALAD_BONDS:
        top.addBond(atoms[index[a]], atoms[index[b]])
    ff = app.ForceField('amber14-all.xml')
    system = ff.createSystem(top, nonbondedMethod=app.NoCutoff, constraints=None,
                             rigidWater=False)
    s = parmed.openmm.load_topology(top, system, xyz=pos)
    s.box = None
    prmtop_path = os.path.join(out_dir, 'ala2_amber_cmap.prmtop')
    inpcrd_path = os.path.join(out_dir, 'ala2_amber_cmap.inpcrd')
    s.save(prmtop_path, format='amber', overwrite=True)
    s.save(inpcrd_path, format='rst7', overwrite=True)
    chamber = parmed.load_file(grid_source)
    ct = chamber.cmap_types[0]
    grid = list(ct.grid)
    lines = ['%FLAG CMAP_COUNT', '%COMMENT Number of CMAP terms, number of unique CMAP parameters',
             '%FORMAT(2I8)', '%8d%8d' % (len(AMBER_CMAP_INDEX), 1), '%FLAG CMAP_RESOLUTION',
             '%COMMENT Number of steps along each phi/psi CMAP axis for each CMAP_PARAMETER grid',
             '%FORMAT(20I4)', '%4d' % ct.resolution, '%FLAG CMAP_PARAMETER_01',
             '%COMMENT charmm36 alanine map (from the chamber file)', '%FORMAT(8F9.5)']
    for k in range(0, len(grid), 8):
        lines.append(''.join('%9.5f' % v for v in grid[k:k + 8]))
    lines += ['%FLAG CMAP_INDEX', '%COMMENT Atom index i,j,k,l,m of the cross term',
              '%COMMENT and then pointer to CMAP_PARAMETER_n', '%FORMAT(6I8)']
    lines += [''.join('%8d' % a for a in term) for term in AMBER_CMAP_INDEX]
    with open(prmtop_path, 'a') as f:
        f.write('\n'.join(lines) + '\n')

    prmtop = app.AmberPrmtopFile(prmtop_path)
    inpcrd = app.AmberInpcrdFile(inpcrd_path)
    system = prmtop.createSystem(nonbondedMethod=app.NoCutoff, constraints=None,
                                 rigidWater=False)
    kinds = {'HarmonicBondForce': (0, 'bond'), 'HarmonicAngleForce': (1, 'angle'),
             'PeriodicTorsionForce': (2, 'dihedral'), 'CMAPTorsionForce': (5, 'cmap'),
             'NonbondedForce': (11, 'nonbonded')}
    for f in system.getForces():
        if type(f).__name__ in kinds:
            f.setForceGroup(kinds[type(f).__name__][0])
    groups = {g: term for g, term in kinds.values()}
    r = evaluate_system(system, groups, 11, inpcrd.positions, None, prmtop_path)
    # The first term alone against the chamber file's one CMAP term through
    # ParmEd (same atoms, coordinates and map).
    p = parmed.load_file(grid_source, grid_source.replace('.prmtop', '.inpcrd'))
    csys = p.createSystem(nonbondedMethod=app.NoCutoff)
    for f in csys.getForces():
        f.setForceGroup(1 if isinstance(f, openmm.CMAPTorsionForce) else 0)
    ctx = base.make_context(csys, p.positions, None)
    e_chamber = base.energy_kcal(ctx, 2)
    del ctx
    one = [f for f in system.getForces() if isinstance(f, openmm.CMAPTorsionForce)][0]
    first = openmm.CMAPTorsionForce()
    first.addMap(*one.getMapParameters(0))
    first.addTorsion(*one.getTorsionParameters(0))
    fsys = openmm.System()
    for i in range(system.getNumParticles()):
        fsys.addParticle(system.getParticleMass(i))
    fsys.addForce(first)
    ctx = base.make_context(fsys, inpcrd.positions, None)
    e_first = base.energy_kcal(ctx, -1)
    del ctx
    print('  CMAP: %d terms %.9f kcal/mol; the backbone term through AmberPrmtopFile %.12f, '
          'the chamber file through ParmEd %.12f' % (len(AMBER_CMAP_INDEX), r['energy']['cmap'],
                                                     e_first, e_chamber))
    if abs(e_first - e_chamber) > 1e-9 or abs(r['energy']['cmap']) < 0.1:
        raise SystemExit('ala2_amber_cmap: the two CMAP readers disagree, or no CMAP energy')
    base.write_report(out_dir, 'ala2_amber_cmap', r)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', required=True, help='output directory')
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for t in ('cmap', 'improper_harmonic', 'urey_bradley'):
        if t not in base.ENERGY_ORDER:
            base.ENERGY_ORDER.insert(base.ENERGY_ORDER.index('dihedral') + 1, t)
    ff = app.ForceField(*FF_FILES)
    for name, builder in SYSTEMS:
        print(name)
        build_and_evaluate(ff, name, builder, args.out)
    print('ala2_amber_cmap')
    build_amber_cmap(args.out, os.path.join(args.out, 'ala2_charmm.prmtop'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
