#!/usr/bin/python3
"""RDKit's UFF minima of perturbed xylitol replicas, for tests/test_uff_relax.c.

Run with Debian's Python (RDKit is visible only there):

    /usr/bin/python3 tests/oracles/uff_relax_rdkit.py          # rewrite the committed data
    /usr/bin/python3 tests/oracles/uff_relax_rdkit.py --check  # regenerate in memory, compare

Starts: the built-in xylitol (assets/molecules/xylitol.sdf, as RDKit reads it)
with every coordinate displaced by a uniform amount in [-A, A], drawn exactly as
vkmd_uff_perturb (engine/sim/uff_fire.c) draws it: splitmix64 seeded with
seed + 0x9E3779B97F4A7C15 * (replica + 1), one 53-bit double per coordinate in
atom-major order. Both sides compute xyz + A * (2u - 1) in double, so vkmd and
RDKit start from the same bits.

Minimiser: RDKit's UFF force field Minimize (BFGS), restarted until it reports
convergence, with forceTol 1e-8 and energyTol 1e-14 (far tighter than its
defaults), so its minimum energy is converged well below the 1e-3 kcal/mol the
test allows. BFGS and FIRE take different paths: the test compares minima.

Writes tests/data/uff/relax_xylitol_rdkit.txt: a header with the parameters, then
per replica: index, RDKit's start energy, its minimum energy (kcal/mol) and
the largest gradient component at the minimum (kcal/mol/A).
"""
import argparse
import math
import os
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem  # noqa: F401 (registers the ForceField Python class)
from rdkit.Chem import rdForceFieldHelpers as uff

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "uff", "relax_xylitol_rdkit.txt")
SEED = 7
AMPLITUDE = 0.1  # A
REPLICAS = 64
MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(state):
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def perturb(xyz, amplitude, seed, replica):
    s = (seed + GOLDEN * (replica + 1)) & MASK
    out = []
    for x in xyz:
        s, z = splitmix64(s)
        u = float(z >> 11) * 2.0 ** -53
        out.append(x + amplitude * (2.0 * u - 1.0))
    return out


def minimise(mol, xyz):
    conf = mol.GetConformer()
    for a in range(mol.GetNumAtoms()):
        conf.SetAtomPosition(a, (xyz[3 * a], xyz[3 * a + 1], xyz[3 * a + 2]))
    ff = uff.UFFGetMoleculeForceField(mol)
    e0 = ff.CalcEnergy()
    for _ in range(100):
        if ff.Minimize(maxIts=100000, forceTol=1e-8, energyTol=1e-14) == 0:
            break
    else:
        raise RuntimeError("RDKit's minimiser did not converge")
    e1 = ff.CalcEnergy()
    gmax = max(abs(g) for g in ff.CalcGrad())
    return e0, e1, gmax


def generate():
    RDLogger.DisableLog("rdApp.*")
    path = os.path.join(ROOT, "assets", "molecules", "xylitol.sdf")
    mol = Chem.MolFromMolFile(path, removeHs=False, sanitize=True)
    base = []
    for p in mol.GetConformer().GetPositions():
        base.extend(float(c) for c in p)
    lines = [
        "# RDKit UFF minima of perturbed xylitol (tests/oracles/uff_relax_rdkit.py; RDKit %s)"
        % Chem.rdBase.rdkitVersion,
        "# starts: assets/molecules/xylitol.sdf + vkmd_uff_perturb(amplitude, seed, replica)",
        "seed %d" % SEED,
        "amplitude_a %.3f" % AMPLITUDE,
        "replicas %d" % REPLICAS,
        "# replica  E_start_kcal_per_mol  E_min_kcal_per_mol  max_abs_gradient_kcal_per_mol_A",
    ]
    for r in range(REPLICAS):
        e0, e1, g = minimise(mol, perturb(base, AMPLITUDE, SEED, r))
        lines.append("%d %.10f %.10f %.3e" % (r, e0, e1, g))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    args = ap.parse_args()
    text = generate()
    if args.check:
        with open(OUT) as f:
            same = f.read() == text
        print("relax_xylitol_rdkit.txt: %s" % ("identical" if same else "DIFFERS"))
        return 0 if same else 1
    with open(OUT, "w") as f:
        f.write(text)
    print("wrote %s (%d replicas)" % (OUT, REPLICAS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
