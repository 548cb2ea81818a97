#!/usr/bin/python3
"""RDKit's UFF throughput on one molecule, for docs/BENCHMARKS.md beside
`vkmd bench --uff`: energy + gradient evaluations per second and full
minimisations per second (one molecule at a time, as RDKit works), from
perturbed copies of the molecule's coordinates (fixed seed, up to 0.2 A).

usage: /usr/bin/python3 tools/bench_rdkit_uff.py [SDF] [--seconds S]
Default molecule: vkmd's built-in xylitol (assets/molecules/xylitol.sdf).
Run with /usr/bin/python3 (Debian's python3-rdkit)."""
import argparse
import os
import random
import time

from rdkit import Chem, rdBase
from rdkit import ForceField  # noqa: F401  (registers the force-field class)
from rdkit.Chem import rdForceFieldHelpers

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('sdf', nargs='?', default=os.path.join(HERE, '..', 'assets', 'molecules',
                                                           'xylitol.sdf'))
    ap.add_argument('--seconds', type=float, default=2.0)
    a = ap.parse_args()
    mol = Chem.MolFromMolFile(a.sdf, removeHs=False)
    conf = mol.GetConformer()
    base = [conf.GetAtomPosition(i) for i in range(mol.GetNumAtoms())]
    rng = random.Random(20261122)

    def perturb():
        for i, p in enumerate(base):
            conf.SetAtomPosition(i, (p.x + 0.4 * (rng.random() - 0.5),
                                     p.y + 0.4 * (rng.random() - 0.5),
                                     p.z + 0.4 * (rng.random() - 0.5)))

    perturb()
    ff = rdForceFieldHelpers.UFFGetMoleculeForceField(mol)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < a.seconds:
        pos = ff.Positions()
        ff.CalcEnergy(pos)
        ff.CalcGrad(pos)
        n += 1
    evals = n / (time.perf_counter() - t0)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < a.seconds:
        perturb()
        ff = rdForceFieldHelpers.UFFGetMoleculeForceField(mol)
        ff.Minimize(maxIts=10000, forceTol=1e-4)
        n += 1
    relax = n / (time.perf_counter() - t0)
    print('RDKit %s UFF, %s (%d atoms), one core: %.1f energy+gradient evaluations/s, '
          '%.2f minimisations/s (forceTol 1e-4)' % (rdBase.rdkitVersion, os.path.basename(a.sdf),
                                                    mol.GetNumAtoms(), evals, relax))


if __name__ == '__main__':
    main()
