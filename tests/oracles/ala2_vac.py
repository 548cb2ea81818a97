#!/usr/bin/env python3
"""Writes tests/data/ala2_vac.prmtop + .inpcrd: alanine dipeptide (ACE-ALA-NME)
in vacuum with Amber ff14SB, for the replica exchange tests
(tests/test_mpi_remd.sh). The heavy atoms are placed from ideal bond lengths,
angles and torsions (phi -80, psi 80: the C7eq basin), OpenMM adds the
hydrogens and ParmEd writes the AMBER files. Run with Debian's Python:

    /usr/bin/python3 tests/oracles/ala2_vac.py --out tests/data
"""
import argparse
import math
import os

import numpy as np
from openmm import app, unit, Vec3

from openmm_reference import write_amber


def place(a, b, c, bond, angle, torsion):
    """Position of d with |cd| = bond, angle bcd, torsion abcd (A, degrees)."""
    angle, torsion = math.radians(angle), math.radians(torsion)
    bc = c - b
    bc /= np.linalg.norm(bc)
    n = np.cross(b - a, bc)
    n /= np.linalg.norm(n)
    m = np.cross(n, bc)
    d2 = np.array([-bond * math.cos(angle), bond * math.sin(angle) * math.cos(torsion),
                   bond * math.sin(angle) * math.sin(torsion)])
    return c + d2[0] * bc + d2[1] * m + d2[2] * n


def heavy_atoms(phi=-80.0, psi=80.0):
    """(residue, atom name, position) of the ten heavy atoms."""
    ch3 = np.array([0.0, 0.0, 0.0])
    c0 = np.array([1.52, 0.0, 0.0])
    n1 = place(np.array([0.0, 1.0, 0.0]), ch3, c0, 1.33, 116.0, 180.0)
    o0 = place(n1, ch3, c0, 1.23, 121.0, 180.0)
    ca = place(ch3, c0, n1, 1.46, 122.0, 180.0)          # omega
    c1 = place(c0, n1, ca, 1.52, 111.0, phi)
    cb = place(c0, n1, ca, 1.53, 110.0, phi - 120.0)
    n2 = place(n1, ca, c1, 1.33, 116.0, psi)
    o1 = place(n2, ca, c1, 1.23, 121.0, 180.0)
    c2 = place(ca, c1, n2, 1.46, 122.0, 180.0)           # omega
    return [('ACE', 'CH3', ch3), ('ACE', 'C', c0), ('ACE', 'O', o0),
            ('ALA', 'N', n1), ('ALA', 'CA', ca), ('ALA', 'C', c1), ('ALA', 'O', o1),
            ('ALA', 'CB', cb), ('NME', 'N', n2), ('NME', 'C', c2)]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--out', required=True)
    args = ap.parse_args()
    top = app.Topology()
    chain = top.addChain()
    positions = []
    residues = {}
    for res, name, xyz in heavy_atoms():
        if res not in residues:
            residues[res] = top.addResidue(res, chain)
        element = app.Element.getBySymbol(name[0])
        top.addAtom(name, element, residues[res])
        positions.append(Vec3(*xyz) * 0.1)
    top.createStandardBonds()
    ff = app.ForceField('amber14/protein.ff14SB.xml')
    modeller = app.Modeller(top, positions * unit.nanometer)
    modeller.addHydrogens(ff)
    modeller.topology.setPeriodicBoxVectors(None)
    write_amber(ff, modeller.topology, modeller.positions, False,
                os.path.join(args.out, 'ala2_vac.prmtop'), os.path.join(args.out, 'ala2_vac.inpcrd'))


if __name__ == '__main__':
    main()
