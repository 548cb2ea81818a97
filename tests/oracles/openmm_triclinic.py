#!/usr/bin/python3
"""OpenMM reference data for triclinic boxes: a truncated octahedron of TIP3P
water (tri_oct_water), alanine dipeptide solvated in a truncated octahedron
(tri_oct_ala2) and a rhombic dodecahedron of TIP3P water (tri_dodec_water).

OpenMM 7.7's Modeller cannot build these cells, so the script builds them:
OpenMM's pre-equilibrated TIP3P box (openmm/app/data/tip3p.pdb) is tiled over
the cell and a water is kept when its oxygen lies in the Wigner-Seitz cell of
the lattice around the cell's centre (one copy per lattice site); waters whose
oxygen is closer than 2.5 A (minimum image) to a kept oxygen or 2.5 A to a
solute atom are dropped, and the whole is relaxed by energy minimisation in
OpenMM (amber14-all + amber14/tip3p, flexible water, PME). ParmEd writes the
AMBER files with the cell given explicitly (lengths and 109.4712206 degree
angles: ParmEd would otherwise write IFBOX = 3 with 70.53 degrees), the
files are reloaded with OpenMM's AmberPrmtopFile/AmberInpcrdFile and
evaluated on the Reference platform exactly as tests/oracles/openmm_reference.py
evaluates its systems (same cutoff 9 A, Ewald tolerance, force groups and
derived terms). NAME.openmm.txt has that script's format plus
  box_angles_deg ALPHA BETA GAMMA
and box_a holds the edge lengths |a| |b| |c| (A) as the inpcrd box line does.

Trap (OpenMM 7.7): its Reference and CPU platforms miss pairs near the cutoff
when a triclinic cell is narrower than 3 cutoffs, so every cell here is wider
than 3 x 9 A between its closest faces (checked), and the direct-space
energy OpenMM reports is checked against a brute-force sum written here
(every pair within the cutoff under the true minimum image, found through
lattice images and a k-d tree; LJ + erfc Coulomb, the exceptions and the
excluded-pair erf corrections, plus the dispersion correction): the script
fails when they differ by more than 1e-7 relative.

Usage: openmm_triclinic.py --out DIR   (the ctest fixture openmm_triclinic)
Run with /usr/bin/python3 (Debian's OpenMM, ParmEd, numpy, scipy).
"""

import argparse
import math
import os
import sys

import numpy as np
import openmm
import openmm.app as app
import openmm.unit as unit
import parmed
from openmm.app.internal.unitcell import computePeriodicBoxVectors
from scipy.spatial import cKDTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import openmm_reference as ref  # noqa: E402
from ala2_vac import heavy_atoms  # noqa: E402

OCT_DEG = 109.4712206  # as the inpcrd box line carries it
MIN_OO_A = 2.5
MIN_SOLUTE_A = 2.5
WATER_PDB = os.path.join(os.path.dirname(app.__file__), 'data', 'tip3p.pdb')
CUTOFF_A = ref.CUTOFF_NM * 10.0


def cell_vectors_a(lengths, angles_deg):
    """Reduced box vectors (rows, A) as OpenMM builds them from the inpcrd."""
    v = computePeriodicBoxVectors(*[x * 0.1 for x in lengths],
                                  *[math.radians(x) for x in angles_deg])
    return np.array([[c for c in vec.value_in_unit(unit.angstrom)] for vec in v])


def min_width_a(vec):
    vol = abs(np.linalg.det(vec))
    return min(vol / np.linalg.norm(np.cross(vec[(i + 1) % 3], vec[(i + 2) % 3]))
               for i in range(3))


def lattice_shifts(vec, n=2):
    r = range(-n, n + 1)
    return np.array([i * vec[0] + j * vec[1] + k * vec[2] for i in r for j in r for k in r])


def min_image_d2(d, shifts):
    """Squared minimum-image lengths of separations d [M, 3] (all shifts tried)."""
    best = np.full(len(d), np.inf)
    for s in shifts:
        best = np.minimum(best, np.sum((d + s) ** 2, axis=1))
    return best


def fill_water(vec, centre, solute_xyz):
    """Waters (list of [3, 3] arrays, A: O, H1, H2) filling the Wigner-Seitz
    cell of the lattice around `centre`, without clashes."""
    pdb = app.PDBFile(WATER_PDB)
    box = pdb.topology.getPeriodicBoxVectors()
    edge = box[0][0].value_in_unit(unit.angstrom)
    xyz = np.array(pdb.positions.value_in_unit(unit.angstrom))
    waters = [xyz[[a.index for a in r.atoms()]] for r in pdb.topology.residues()]
    waters = np.array([w for w in waters if len(w) == 3])  # O, H1, H2
    reach = np.max(np.linalg.norm(vec, axis=1))  # the cell lies within this of its centre
    n = int(math.ceil(reach / edge)) + 1
    shifts = lattice_shifts(vec)
    kept = []
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            for k in range(-n, n + 1):
                w = waters + np.array([i, j, k]) * edge + centre - edge / 2
                d = w[:, 0, :] - centre
                r2 = np.sum(d * d, axis=1)
                inside = r2 <= min_image_d2(d, shifts) + 1e-9
                kept.extend(w[inside])
    kept = np.array(kept)
    # Drop clashes across the cell's faces and with the solute (greedy, in order).
    o = kept[:, 0, :]
    keep = np.ones(len(kept), bool)
    if len(solute_xyz):
        for s in shifts:
            dist = np.min(np.linalg.norm(o[:, None, :] + s - solute_xyz[None, :, :], axis=2),
                          axis=1)
            keep &= dist >= MIN_SOLUTE_A
    ext = np.concatenate([o + s for s in shifts])
    owner = np.tile(np.arange(len(o)), len(shifts))
    tree = cKDTree(ext)
    for a in range(len(o)):
        if not keep[a]:
            continue
        for b in tree.query_ball_point(o[a], MIN_OO_A):
            if owner[b] < a and keep[owner[b]]:
                keep[a] = False
                break
    print('  %d waters in the cell, %d dropped for clashes' % (len(kept), int((~keep).sum())))
    return kept[keep]


def ala2_topology():
    """Alanine dipeptide (ACE-ALA-NME) with hydrogens, as tests/oracles/ala2_vac.py
    builds it, centred at the origin. Returns (topology, positions in A)."""
    top = app.Topology()
    chain = top.addChain()
    positions = []
    residues = {}
    for res, name, xyz in heavy_atoms():
        if res not in residues:
            residues[res] = top.addResidue(res, chain)
        top.addAtom(name, app.Element.getBySymbol(name[0]), residues[res])
        positions.append(openmm.Vec3(*xyz) * 0.1)
    top.createStandardBonds()
    modeller = app.Modeller(top, positions * unit.nanometer)
    modeller.addHydrogens(app.ForceField('amber14/protein.ff14SB.xml'))
    xyz = np.array(modeller.positions.value_in_unit(unit.angstrom))
    return modeller.topology, xyz - xyz.mean(axis=0)


def build(lengths, angles, solute):
    """Topology, positions (A) and reduced vectors (A) of the filled cell."""
    vec = cell_vectors_a(lengths, angles)
    width = min_width_a(vec)
    print('  cell %s A, angles %s: vectors %s, closest faces %.3f A (3 x cutoff = %.1f A)'
          % (lengths, angles, vec.tolist(), width, 3 * CUTOFF_A))
    if width <= 3 * CUTOFF_A:
        raise SystemExit('cell narrower than 3 x the cutoff: OpenMM 7.7 would miss pairs')
    centre = 0.5 * (vec[0] + vec[1] + vec[2])
    top = app.Topology()
    xyz = []
    if solute:
        stop, sxyz = ala2_topology()
        sxyz = sxyz + centre
        modeller = app.Modeller(stop, sxyz * 0.1 * unit.nanometer)
        xyz = list(sxyz)
    else:
        modeller = app.Modeller(top, [])
    waters = fill_water(vec, centre, np.array(xyz).reshape(-1, 3))
    wtop = app.Topology()
    chain = wtop.addChain()
    for _ in waters:
        r = wtop.addResidue('HOH', chain)
        o = wtop.addAtom('O', app.element.oxygen, r)
        h1 = wtop.addAtom('H1', app.element.hydrogen, r)
        h2 = wtop.addAtom('H2', app.element.hydrogen, r)
        wtop.addBond(o, h1)
        wtop.addBond(o, h2)
    modeller.add(wtop, waters.reshape(-1, 3) * 0.1 * unit.nanometer)
    modeller.topology.setPeriodicBoxVectors([openmm.Vec3(*v) * 0.1 for v in vec] * unit.nanometer)
    return modeller.topology, modeller.positions, vec


def relax(ff, topology, positions, vec):
    """A short energy minimisation in OpenMM (CPU platform), positions out."""
    system = ff.createSystem(topology, nonbondedMethod=app.PME,
                             nonbondedCutoff=ref.CUTOFF_NM * unit.nanometer, constraints=None,
                             rigidWater=False)
    try:
        platform = openmm.Platform.getPlatformByName('CPU')
    except Exception:
        platform = openmm.Platform.getPlatformByName('Reference')
    ctx = openmm.Context(system, openmm.VerletIntegrator(0.001), platform)
    ctx.setPeriodicBoxVectors(*[openmm.Vec3(*v) * 0.1 for v in vec])
    ctx.setPositions(positions)
    e0 = ctx.getState(getEnergy=True).getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
    openmm.LocalEnergyMinimizer.minimize(ctx, 10.0, 300)
    state = ctx.getState(getEnergy=True, getPositions=True)
    e1 = state.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
    print('  minimised: %.1f -> %.1f kcal/mol' % (e0 / ref.KJ_PER_KCAL, e1 / ref.KJ_PER_KCAL))
    return state.getPositions()


def write_amber(ff, topology, positions, lengths, angles, prmtop_path, inpcrd_path):
    system = ff.createSystem(topology, nonbondedMethod=app.PME,
                             nonbondedCutoff=ref.CUTOFF_NM * unit.nanometer, constraints=None,
                             rigidWater=False)
    structure = parmed.openmm.load_topology(topology, system, xyz=positions)
    structure.box = list(lengths) + list(angles)
    structure.save(prmtop_path, format='amber', overwrite=True)
    with open(prmtop_path) as f:
        lines = f.readlines()
    lines[0] = '%VERSION  VERSION_STAMP = V0001.000  DATE = 01/01/00  00:00:00\n'
    with open(prmtop_path, 'w') as f:
        f.writelines(lines)
    structure.save(inpcrd_path, format='rst7', overwrite=True)


# ------------------------------------------------- brute-force direct space

def direct_space_kcal(prmtop_path, inpcrd_path, alpha_per_a):
    """NonbondedForce's direct space (LJ, erfc Coulomb, exceptions, excluded
    erf corrections, dispersion correction) summed here, kcal/mol."""
    prmtop = app.AmberPrmtopFile(prmtop_path)
    inpcrd = app.AmberInpcrdFile(inpcrd_path)
    system = prmtop.createSystem(nonbondedMethod=app.PME,
                                 nonbondedCutoff=ref.CUTOFF_NM * unit.nanometer,
                                 constraints=None, rigidWater=False)
    nb = ref.nonbonded_of(system)
    n = nb.getNumParticles()
    q = np.zeros(n)
    sig = np.zeros(n)
    eps = np.zeros(n)
    for i in range(n):
        qi, si, ei = nb.getParticleParameters(i)
        q[i] = qi.value_in_unit(unit.elementary_charge)
        sig[i] = si.value_in_unit(unit.angstrom)
        eps[i] = ei.value_in_unit(unit.kilocalorie_per_mole)
    vec = np.array([[c for c in v.value_in_unit(unit.angstrom)] for v in inpcrd.boxVectors])
    x = np.array(inpcrd.positions.value_in_unit(unit.angstrom))
    k = 138.935457644382 * 10.0 / ref.KJ_PER_KCAL
    rc = CUTOFF_A
    # Wrap into the cell's parallelepiped, then images of every atom.
    frac = x @ np.linalg.inv(vec)
    x = (frac - np.floor(frac)) @ vec
    shifts = lattice_shifts(vec)
    ext = np.concatenate([x + s for s in shifts])
    owner = np.tile(np.arange(n), len(shifts))
    pairs = cKDTree(ext).query_ball_point(x, rc)
    excluded = set()
    e_ex = 0.0
    # Every exception's minimum-image separation at once (the same sums per
    # row as one at a time, so the same bits), then the terms in order.
    exceptions = [nb.getExceptionParameters(e) for e in range(nb.getNumExceptions())]
    ei = np.array([ex[0] for ex in exceptions], dtype=int)
    ej = np.array([ex[1] for ex in exceptions], dtype=int)
    ex_d2 = min_image_d2(x[ej] - x[ei], shifts) if exceptions else np.zeros(0)
    for e, (i, j, qq, s, ep) in enumerate(exceptions):
        excluded.add((min(i, j), max(i, j)))
        r = math.sqrt(ex_d2[e])
        qq = qq.value_in_unit(unit.elementary_charge ** 2)
        s = s.value_in_unit(unit.angstrom)
        ep = ep.value_in_unit(unit.kilocalorie_per_mole)
        if qq != 0:
            e_ex += k * qq / r
        if ep != 0:
            sr6 = (s / r) ** 6
            e_ex += 4 * ep * (sr6 * sr6 - sr6)
        e_ex -= k * q[i] * q[j] * math.erf(alpha_per_a * r) / r
    ii, jj = [], []
    for i, hits in enumerate(pairs):
        for h in hits:
            j = owner[h]
            if j > i:
                ii.append(i)
                jj.append(h)
    ii = np.array(ii)
    jj = np.array(jj)
    jo = owner[jj]
    keep = np.array([(a, b) not in excluded for a, b in zip(ii, jo)])
    ii, jj, jo = ii[keep], jj[keep], jo[keep]
    r = np.linalg.norm(ext[jj] - x[ii], axis=1)
    if len(set(zip(ii.tolist(), jo.tolist()))) != len(ii):
        raise SystemExit('a pair was found through two images: cell too thin for the cutoff')
    s = 0.5 * (sig[ii] + sig[jo])
    ep = np.sqrt(eps[ii] * eps[jo])
    sr6 = (s / r) ** 6
    e_lj = np.sum(4 * ep * (sr6 * sr6 - sr6))
    from scipy.special import erfc
    e_coul = np.sum(k * q[ii] * q[jo] * erfc(alpha_per_a * r) / r)
    return e_lj + e_coul + e_ex, len(ii)


def check_direct_space(prmtop_path, inpcrd_path, r):
    """OpenMM's direct-space group against the brute-force sum."""
    e = r['energy']
    omm = e['nonbonded'] - e['coulomb_recip_group'] - e['lj_dispersion']
    mine, npairs = direct_space_kcal(prmtop_path, inpcrd_path, r['alpha_per_a'])
    rel = abs(mine - omm) / abs(omm)
    print('  direct space: OpenMM %.8f, brute force %.8f kcal/mol over %d pairs (rel %.2e)'
          % (omm, mine, npairs, rel))
    if rel > 1e-7:
        raise SystemExit('%s: OpenMM direct space differs from the brute-force sum'
                         % prmtop_path)


SYSTEMS = [
    # name, edge lengths (A), angles (degrees), solute
    ('tri_oct_water', (40.0, 40.0, 40.0), (OCT_DEG, OCT_DEG, OCT_DEG), False),
    ('tri_oct_ala2', (40.0, 40.0, 40.0), (OCT_DEG, OCT_DEG, OCT_DEG), True),
    ('tri_dodec_water', (39.0, 39.0, 39.0), (60.0, 60.0, 90.0), False),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', required=True, help='output directory')
    parser.add_argument('--only', help='build only this system')
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    ff = ref.forcefield()
    for name, lengths, angles, solute in SYSTEMS:
        if args.only and name != args.only:
            continue
        print('%s:' % name)
        topology, positions, vec = build(lengths, angles, solute)
        positions = relax(ff, topology, positions, vec)
        prmtop_path = os.path.join(args.out, name + '.prmtop')
        inpcrd_path = os.path.join(args.out, name + '.inpcrd')
        write_amber(ff, topology, positions, lengths, angles, prmtop_path, inpcrd_path)
        with open(prmtop_path) as f:
            text = f.read()
        ifbox = int(text.split('%FLAG POINTERS')[1].split('\n')[4].split()[7])
        print('  prmtop IFBOX = %d' % ifbox)
        r = ref.evaluate(prmtop_path, inpcrd_path)
        check_direct_space(prmtop_path, inpcrd_path, r)
        r['box_a'] = list(lengths)
        report = ref.format_report(name, r)
        report = report.replace('\ncutoff_a ', '\nbox_angles_deg %.10f %.10f %.10f\ncutoff_a '
                                % tuple(angles), 1)
        with open(os.path.join(args.out, name + '.openmm.txt'), 'w') as f:
            f.write(report)
        e = r['energy']
        print('  %d atoms, total %.6f kcal/mol, alpha %.10f 1/A, grid %d %d %d'
              % ((r['atoms'], e['total'], r['alpha_per_a']) + r['grid']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
