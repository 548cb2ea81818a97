#!/usr/bin/python3
"""RDKit's UFF minimiser from the starts tests/test_ref_uff_lbfgs.c and
tests/test_gpu_uff_lbfgs.c use, for their comparison of vkmd's L-BFGS with it.

Run with Debian's Python (RDKit is visible only there):

    /usr/bin/python3 tests/oracles/uff_lbfgs_rdkit.py          # rewrite the committed data
    /usr/bin/python3 tests/oracles/uff_lbfgs_rdkit.py --check  # regenerate in memory, compare

Starts:
  - every record of tests/data/uff/molecules.sdf at its own coordinates
    (57 records), and the same record with every coordinate displaced by up
    to 0.1 A (vkmd_uff_perturb, seed 11, replica 0..3) to collect the other
    minima RDKit reaches near it;
  - xylitol (assets/molecules/xylitol.sdf) + vkmd_uff_perturb(0.1 A, seed 7,
    replica 0..63): the starts of tests/data/uff/relax_xylitol_rdkit.txt.

Per start:
  iterations  RDKit's BFGS iterations to converge with its defaults
              (forceTol 1e-4), found by bisecting maxIts (RDKit's Python API
              does not return the count; Minimize is deterministic, and
              returns 0 exactly when it converged within maxIts);
  e_default   the energy where that run stops (kcal/mol);
  e_tight     the minimum's energy: Minimize restarted with forceTol 1e-8
              until it reports convergence (kcal/mol);
  gmax_tight  the largest gradient component there (kcal/mol/A): RDKit
              reports convergence when its line search stalls, so on a few
              records (trimethylphosphine) its "minimum" is not one.
Units: kcal/mol. Records with no finite energy are not in the set.
"""
import argparse
import os
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem  # noqa: F401 (registers the ForceField Python class)
from rdkit.Chem import rdForceFieldHelpers as uff

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "uff", "lbfgs_rdkit.txt")
MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
XYL_SEED, XYL_AMPLITUDE, XYL_REPLICAS = 7, 0.1, 64
REC_SEED, REC_AMPLITUDE, REC_EXTRA = 11, 0.1, 4


def splitmix64(state):
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def perturb(xyz, amplitude, seed, replica):
    """vkmd_uff_perturb (engine/system/fire_settings.h), bit for bit."""
    s = (seed + GOLDEN * (replica + 1)) & MASK
    out = []
    for x in xyz:
        s, z = splitmix64(s)
        u = float(z >> 11) * 2.0 ** -53
        out.append(x + amplitude * (2.0 * u - 1.0))
    return out


def field(mol, xyz):
    conf = mol.GetConformer()
    for a in range(mol.GetNumAtoms()):
        conf.SetAtomPosition(a, (xyz[3 * a], xyz[3 * a + 1], xyz[3 * a + 2]))
    return uff.UFFGetMoleculeForceField(mol)


def converges_within(mol, xyz, its):
    ff = field(mol, xyz)
    return ff.Minimize(maxIts=its) == 0, ff


def run(mol, xyz):
    lo, hi = 0, 1
    while not converges_within(mol, xyz, hi)[0]:
        lo, hi = hi, 2 * hi
        if hi > 1 << 16:
            raise RuntimeError("RDKit did not converge")
    while hi - lo > 1:  # lo fails, hi converges
        mid = (lo + hi) // 2
        if converges_within(mol, xyz, mid)[0]:
            hi = mid
        else:
            lo = mid
    ff = converges_within(mol, xyz, hi)[1]
    e_default = ff.CalcEnergy()
    ff = field(mol, xyz)
    for _ in range(100):
        if ff.Minimize(maxIts=100000, forceTol=1e-8, energyTol=1e-14) == 0:
            break
    else:
        raise RuntimeError("RDKit's tight minimisation did not converge")
    return hi, e_default, ff.CalcEnergy(), max(abs(g) for g in ff.CalcGrad())


def coords(mol):
    out = []
    for p in mol.GetConformer().GetPositions():
        out.extend(float(c) for c in p)
    return out


def generate():
    RDLogger.DisableLog("rdApp.*")
    lines = [
        "# RDKit UFF minimisations for vkmd's L-BFGS tests (tests/oracles/uff_lbfgs_rdkit.py;"
        " RDKit %s)" % Chem.rdBase.rdkitVersion,
        "# kind index start iterations e_default_kcal_per_mol e_tight_kcal_per_mol"
        " max_abs_gradient_tight_kcal_per_mol_A",
        "# kind: record (molecules.sdf record at its coordinates), record_perturbed"
        " (index = record, start = replica 0..%d; seed %d, %.2f A), xylitol (index = start ="
        " replica; seed %d, %.2f A)" % (REC_EXTRA - 1, REC_SEED, REC_AMPLITUDE, XYL_SEED, XYL_AMPLITUDE),
    ]
    sdf = os.path.join(ROOT, "tests", "data", "uff", "molecules.sdf")
    for k, mol in enumerate(Chem.SDMolSupplier(sdf, removeHs=False, sanitize=True)):
        base = coords(mol)
        lines.append("record %d 0 %d %.10f %.10f %.3e" % ((k,) + run(mol, base)))
        for r in range(REC_EXTRA):
            lines.append("record_perturbed %d %d %d %.10f %.10f %.3e"
                         % ((k, r) + run(mol, perturb(base, REC_AMPLITUDE, REC_SEED, r))))
    mol = Chem.MolFromMolFile(os.path.join(ROOT, "assets", "molecules", "xylitol.sdf"),
                              removeHs=False, sanitize=True)
    base = coords(mol)
    for r in range(XYL_REPLICAS):
        lines.append("xylitol %d %d %d %.10f %.10f %.3e"
                     % ((r, r) + run(mol, perturb(base, XYL_AMPLITUDE, XYL_SEED, r))))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    args = ap.parse_args()
    text = generate()
    if args.check:
        with open(OUT) as f:
            same = f.read() == text
        print("lbfgs_rdkit.txt: %s" % ("identical" if same else "DIFFERS"))
        return 0 if same else 1
    with open(OUT, "w") as f:
        f.write(text)
    print("wrote %s" % OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
