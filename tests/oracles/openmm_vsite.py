#!/usr/bin/python3
"""External check of vkmd's virtual sites (AMBER extra points): OpenMM data.

Builds rectangular boxes of TIP4P-Ew water (tip4pew_box: 308 waters in a
2.2 nm cube) and of TIP5P water (tip5p_box, the same way) with OpenMM's
Modeller and tip4pew.xml / tip5p.xml, writes each as AMBER
prmtop/inpcrd with ParmEd, reloads the files with OpenMM's AMBER reader and
evaluates them on the Reference platform exactly as
tests/oracles/openmm_reference.py does (flexible water, no constraints, PME),
into NAME.prmtop, NAME.inpcrd and NAME.openmm.txt in the same format (that
script's docstring defines every key).

What the AMBER files need so that OpenMM's reader rebuilds the extra points
(it finds them by name and places them from bond lengths):
- the extra point is named EP (ParmEd keeps Modeller's name M, which the
  reader ignores);
- every water has an H-H bond and an O-EP bond (Modeller's topology has
  neither), each with a bond type of its own registered in the structure
  (an unregistered type makes every bond take the last type's parameters).
  k = 553 kcal/mol/A^2 as tleap's water; r0 the TIP4P-Ew geometry.
The script checks that the reloaded system has one virtual site per water.

Forces: OpenMM's rows for the parents already carry the force redistributed
from the extra points; the extra point's own row is written as zero, which
is what vkmd leaves on a site after spreading its force.

TIP5P: OpenMM 7.7's AMBER reader builds the two lone pairs with in-plane
weights +cos(54.735) d_OE / h (amber_file_parser.py), which puts them on the
hydrogens' side of the oxygen; its own tip5p.xml (and vkmd,
engine/system/vsite.c) puts them on the other side, weights -0.3449 and
cross weights -+6.444/nm. The reloaded system's out-of-plane sites are
replaced here by tip5p.xml's (all three weights negated), so the figures
describe TIP5P as the force field defines it.

The coordinates written are the ones OpenMM evaluates: after
Context.computeVirtualSites (Modeller's M positions are moved onto the
frame), so vkmd, which rebuilds the sites, sees the same configuration.

Usage: openmm_vsite.py --out DIR. Run with /usr/bin/python3.
"""

import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import openmm_reference as ref  # noqa: E402

import openmm  # noqa: E402
import openmm.app as app  # noqa: E402
import openmm.unit as unit  # noqa: E402
import parmed  # noqa: E402

K_WATER_BOND = 553.0
D_OL5 = 0.70  # TIP5P O-L, A  # kcal/mol/A^2, tleap's water bonds
# TIP4P-Ew geometry (tip4pew.xml): O-H 0.9572 A, H-O-H 104.52 deg, O-M 0.125 A
D_OH = 0.9572
THETA_HOH = 1.82421813418
D_OM = 0.125


def build_tip4pew_box():
    ff = app.ForceField('tip4pew.xml')
    modeller = app.Modeller(app.Topology(), [])
    modeller.addSolvent(ff, model='tip4pew',
                        boxSize=openmm.Vec3(2.2, 2.2, 2.2) * unit.nanometer)
    ref.remove_boundary_clashes(modeller)
    return ff, modeller.topology, modeller.positions


def build_tip5p_box():
    ff = app.ForceField('tip5p.xml')
    modeller = app.Modeller(app.Topology(), [])
    modeller.addSolvent(ff, model='tip5p',
                        boxSize=openmm.Vec3(2.2, 2.2, 2.2) * unit.nanometer)
    ref.remove_boundary_clashes(modeller)
    return ff, modeller.topology, modeller.positions


def fix_tip5p_sites(system):
    """tip5p.xml's lone pairs in place of the AMBER reader's (see above)."""
    for i in range(system.getNumParticles()):
        if not system.isVirtualSite(i):
            continue
        v = system.getVirtualSite(i)
        if isinstance(v, openmm.OutOfPlaneSite):
            w12, w13, wc = v.getWeight12(), v.getWeight13(), v.getWeightCross()
            assert w12 > 0 and w13 > 0, 'OpenMM placed the TIP5P sites as expected here'
            system.setVirtualSite(i, openmm.OutOfPlaneSite(
                v.getParticle(0), v.getParticle(1), v.getParticle(2), -w12, -w13, -wc))


_create_system = app.AmberPrmtopFile.createSystem


def create_system_fixed(self, *args, **kwargs):
    system = _create_system(self, *args, **kwargs)
    fix_tip5p_sites(system)
    return system


app.AmberPrmtopFile.createSystem = create_system_fixed

# OpenMM evaluates the positions it is given, extra points included; the
# written coordinates are rounded (1e-7 A), so the sites are rebuilt from
# their parents in every context, as vkmd rebuilds them.
_make_context = ref.make_context


def make_context_sites(system, positions, box):
    ctx = _make_context(system, positions, box)
    ctx.computeVirtualSites()
    return ctx


ref.make_context = make_context_sites


def write_amber_vsite(ff, topology, positions, prmtop_path, inpcrd_path):
    system = ff.createSystem(topology, nonbondedMethod=app.PME,
                             nonbondedCutoff=ref.CUTOFF_NM * unit.nanometer, constraints=None,
                             rigidWater=False)
    s = parmed.openmm.load_topology(topology, system, xyz=positions)
    a, b, c = [v.value_in_unit(unit.angstrom) for v in topology.getPeriodicBoxVectors()]
    s.box = [a[0], b[1], c[2], 90.0, 90.0, 90.0]
    hh = parmed.BondType(K_WATER_BOND, 2 * D_OH * math.sin(0.5 * THETA_HOH), list=s.bond_types)
    om = parmed.BondType(K_WATER_BOND, D_OM, list=s.bond_types)
    ol = parmed.BondType(K_WATER_BOND, D_OL5, list=s.bond_types)
    s.bond_types.append(hh)
    s.bond_types.append(om)
    s.bond_types.append(ol)
    for res in s.residues:
        o = [x for x in res.atoms if x.atomic_number == 8]
        h = [x for x in res.atoms if x.atomic_number == 1]
        ep = [x for x in res.atoms if x.mass == 0]
        assert len(o) == 1 and len(h) == 2 and len(ep) in (1, 2), res
        s.bonds.append(parmed.Bond(h[0], h[1], type=hh))
        for k, e in enumerate(ep):
            e.name = 'EP' if len(ep) == 1 else 'EP%d' % (k + 1)
            s.bonds.append(parmed.Bond(o[0], e, type=om if len(ep) == 1 else ol))
    s.save(prmtop_path, format='amber', overwrite=True)
    with open(prmtop_path) as f:
        lines = f.readlines()
    lines[0] = '%VERSION  VERSION_STAMP = V0001.000  DATE = 01/01/00  00:00:00\n'
    with open(prmtop_path, 'w') as f:
        f.writelines(lines)

    # Reload, check the extra points came back as virtual sites, and move
    # them onto their frames.
    prm = app.AmberPrmtopFile(prmtop_path)
    rsys = prm.createSystem(nonbondedMethod=app.PME,
                            nonbondedCutoff=ref.CUTOFF_NM * unit.nanometer, constraints=None,
                            rigidWater=False)
    nvs = sum(1 for i in range(rsys.getNumParticles()) if rsys.isVirtualSite(i))
    nep = sum(1 for a in s.atoms if a.mass == 0)
    if nvs != nep:
        raise SystemExit('%s: OpenMM rebuilt %d virtual sites for %d waters'
                         % (prmtop_path, nvs, nep))
    ctx = openmm.Context(rsys, openmm.VerletIntegrator(0.001),
                         openmm.Platform.getPlatformByName('Reference'))
    ctx.setPeriodicBoxVectors(*topology.getPeriodicBoxVectors())
    ctx.setPositions(positions)
    ctx.computeVirtualSites()
    built = ctx.getState(getPositions=True).getPositions(asNumpy=False)
    moved = max(math.sqrt(sum((p.value_in_unit(unit.angstrom)[d] -
                               q.value_in_unit(unit.angstrom)[d]) ** 2 for d in range(3)))
                for p, q in zip(built, positions))
    print('  %d virtual sites; building them moved an atom by %.2e A at most' % (nvs, moved))
    s.coordinates = [[x.value_in_unit(unit.angstrom)[d] for d in range(3)] for x in built]
    s.save(inpcrd_path, format='rst7', overwrite=True)
    return [i for i in range(rsys.getNumParticles()) if rsys.isVirtualSite(i)]


SYSTEMS = [('tip4pew_box', build_tip4pew_box), ('tip5p_box', build_tip5p_box)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', required=True, help='output directory')
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, builder in SYSTEMS:
        random.seed(ref.SEED)
        ff, topology, positions = builder()
        prmtop = os.path.join(args.out, name + '.prmtop')
        inpcrd = os.path.join(args.out, name + '.inpcrd')
        sites = write_amber_vsite(ff, topology, positions, prmtop, inpcrd)
        r = ref.evaluate(prmtop, inpcrd)
        for i in sites:
            r['forces'][i] = [0.0, 0.0, 0.0]
        ref.write_report(args.out, name, r)
    return 0


if __name__ == '__main__':
    sys.exit(main())
