#!/usr/bin/python3
"""Generates the UFF comparison data of vkmd from RDKit's UFF.

Run with Debian's Python (RDKit is visible only there):

    /usr/bin/python3 tests/oracles/uff_rdkit_reference.py            # rewrite the committed data
    /usr/bin/python3 tests/oracles/uff_rdkit_reference.py --check    # regenerate in memory, compare

For every molecule below (built from SMILES, hydrogens added, embedded with ETKDG
and a fixed seed; some with a seeded random perturbation so that the terms are not
at their minima) it writes

  tests/data/uff/molecules.sdf        every record as RDKit writes a V2000 mol block
  tests/data/uff/rdkit_reference.txt  RDKit's UFF energies, gradient, atom types and
                                      the per-term parameters RDKit exposes

and the built-in molecules assets/molecules/formic-acid.sdf and xylitol.sdf (the
same coordinates as their records in molecules.sdf).

Every number comes from the molecule RDKit reads back from the mol block it wrote,
so the reference is for exactly the text vkmd reads (coordinates rounded to 1e-4 A).

What RDKit 2022.09 exposes and what is recorded:
  * total energy and gradient (ForceField.CalcEnergy / CalcGrad);
  * the van der Waals energy, as the total minus the energy of a force field built
    with vdwThresh=0 (which then holds no van der Waals term); the rest is "bonded";
  * the total with ignoreInterfragInteractions=False (RDKit's default is True);
  * per-term parameters: GetUFFBondStretchParams (kb, r0), GetUFFAngleBendParams
    (ka, theta0), GetUFFTorsionParams (V, before the division by the number of
    torsions about the bond), GetUFFInversionParams (K), GetUFFVdWParams (x, D);
  * atom types. RDKit does not return its UFF labels to Python; the label is built
    here from RDKit's own perception (hybridisation, aromaticity, conjugation, total
    valence) by the rule of RDKit's UFF atom typer, and then every parameter above is
    recomputed from that label and assets/uff_params.txt and must equal RDKit's. That
    pins the label down (e.g. C_R and C_2 differ in r1) and checks the table.
RDKit has no per-term switch for bonds, angles, torsions or inversions, so those
are compared through their parameters and the bonded total.
"""
import argparse
import math
import os
import random
import sys

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import AllChem
from rdkit.Chem import rdForceFieldHelpers as uff

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name, SMILES, embedding seed, perturbation sigma in A (0: as embedded)
MOLECULES = [
    ("formic-acid", "OC=O", 11, 0.0),
    ("xylitol", "OC[C@H](O)[C@@H](O)[C@H](O)CO", 12, 0.0),
    ("methane", "C", 13, 0.0),
    ("ethanol", "CCO", 14, 0.0),
    ("formaldehyde", "C=O", 15, 0.0),
    ("benzene", "c1ccccc1", 16, 0.0),
    ("toluene", "Cc1ccccc1", 17, 0.0),
    ("pyridine", "c1ccncc1", 18, 0.0),
    ("pyrrole", "c1cc[nH]c1", 19, 0.0),
    ("furan", "c1ccoc1", 20, 0.0),
    ("thiophene", "c1ccsc1", 21, 0.0),
    ("imidazole", "c1c[nH]cn1", 22, 0.0),
    ("phenol", "Oc1ccccc1", 23, 0.0),
    ("naphthalene", "c1ccc2ccccc2c1", 24, 0.0),
    ("indole", "c1ccc2[nH]ccc2c1", 25, 0.0),
    ("2-pyridone", "O=c1cccc[nH]1", 26, 0.0),
    ("n-methylacetamide", "CNC(C)=O", 27, 0.0),
    ("urea", "NC(N)=O", 28, 0.0),
    ("acetic-acid", "CC(=O)O", 29, 0.0),
    ("acetate", "CC(=O)[O-]", 30, 0.0),
    ("glycine-zwitterion", "[NH3+]CC(=O)[O-]", 31, 0.0),
    ("aspirin", "CC(=O)Oc1ccccc1C(=O)O", 32, 0.0),
    ("caffeine", "Cn1cnc2c1c(=O)n(C)c(=O)n2C", 33, 0.0),
    ("nitrobenzene", "O=[N+]([O-])c1ccccc1", 34, 0.0),
    ("methyl-phosphate", "COP(=O)(O)O", 35, 0.0),
    ("trimethylphosphine", "CP(C)C", 36, 0.0),
    ("phosphorus-pentafluoride", "FP(F)(F)(F)F", 37, 0.0),
    ("dimethyl-sulfide", "CSC", 38, 0.0),
    ("thioanisole", "CSc1ccccc1", 39, 0.0),
    ("dimethyl-disulfide", "CSSC", 40, 0.0),
    ("dimethyl-sulfoxide", "CS(C)=O", 41, 0.0),
    ("methanesulfonamide", "CS(N)(=O)=O", 42, 0.0),
    ("dimethyl-peroxide", "COOC", 43, 0.0),
    ("anisole", "COc1ccccc1", 44, 0.0),
    ("fluoroform", "FC(F)F", 45, 0.0),
    ("chlorobenzene", "Clc1ccccc1", 46, 0.0),
    ("bromoethane", "CCBr", 47, 0.0),
    ("acetonitrile", "CC#N", 48, 0.0),
    ("propene", "C=CC", 49, 0.0),
    ("butadiene", "C=CC=C", 50, 0.0),
    ("methylenecyclopropane", "C=C1CC1", 51, 0.0),
    ("cyclobutene", "C1=CCC1", 52, 0.0),
    # Aromatic only as a fused pair (the shared bond stays Kekule), a cage with more
    # four-rings than independent cycles, an sp2 carbonyl in a four-ring, quinones.
    ("azulene", "c1ccc2cccc-2cc1", 54, 0.0),
    ("cubane", "C12C3C4C1C5C2C3C45", 55, 0.0),
    ("benzylpenicillin", "CC1(C)S[C@@H]2[C@H](NC(=O)Cc3ccccc3)C(=O)N2[C@H]1C(=O)O", 56, 0.0),
    ("tropone", "O=c1cccccc1", 57, 0.0),
    ("benzoquinone", "O=C1C=CC(=O)C=C1", 58, 0.0),
    ("formic-acid-dimer", "OC=O.OC=O", 53, 0.0),
    # Perturbed geometries: every term away from its minimum.
    ("formic-acid-perturbed", "OC=O", 11, 0.08),
    ("xylitol-perturbed", "OC[C@H](O)[C@@H](O)[C@H](O)CO", 12, 0.08),
    ("n-methylacetamide-perturbed", "CNC(C)=O", 27, 0.1),
    ("aspirin-perturbed", "CC(=O)Oc1ccccc1C(=O)O", 32, 0.08),
    ("caffeine-perturbed", "Cn1cnc2c1c(=O)n(C)c(=O)n2C", 33, 0.08),
    ("methyl-phosphate-perturbed", "COP(=O)(O)O", 35, 0.1),
    ("thioanisole-perturbed", "CSc1ccccc1", 39, 0.1),
    ("phosphorus-pentafluoride-perturbed", "FP(F)(F)(F)F", 37, 0.1),
    ("acetonitrile-perturbed", "CC#N", 48, 0.1),
]
BUILTINS = ("formic-acid", "xylitol")

HYB = Chem.rdchem.HybridizationType
HYB_NAME = {HYB.S: "S", HYB.SP: "SP", HYB.SP2: "SP2", HYB.SP3: "SP3", HYB.SP3D: "SP3D",
            HYB.SP3D2: "SP3D2", HYB.SP2D: "SP2D", HYB.UNSPECIFIED: "UNSPECIFIED"}
FORCED_SP3 = (12, 13, 14, 15, 50, 51, 52, 81, 82, 83, 84)
G = 332.06  # UFF bond force constant prefactor, kcal/mol A / e^2
LAMBDA = 0.1332  # bond-order correction scale


def read_table(path):
    table = {}
    for line in open(path):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        assert len(line) == 12, line
        v = [float(x) for x in line[1:]]
        table[line[0]] = dict(r1=v[0], theta0=math.radians(v[1]), x1=v[2], D1=v[3], Z1=v[5],
                              V1=v[6], U1=v[7], Xi=v[8])
    return table


def uff_label(atom):
    """The UFF label RDKit's typer gives `atom`, from RDKit's own perception."""
    z = atom.GetAtomicNum()
    pt = Chem.GetPeriodicTable()
    sym = atom.GetSymbol()
    key = sym + "_" if len(sym) == 1 else sym
    if pt.GetDefaultValence(z) == -1 or pt.GetNOuterElecs(z) not in (1, 7):
        hyb = atom.GetHybridization()
        if z in FORCED_SP3:
            key += "3"
        elif hyb == HYB.SP:
            key += "1"
        elif hyb == HYB.SP2:
            conj = any(b.GetIsConjugated() for b in atom.GetBonds())
            key += "R" if (atom.GetIsAromatic() or conj) and z in (6, 7, 8, 16) else "2"
        elif hyb == HYB.SP3:
            key += "3"
        elif hyb == HYB.SP2D:
            key += "4"
        elif hyb == HYB.SP3D:
            key += "5"
        elif hyb == HYB.SP3D2:
            key += "6"
    v = atom.GetTotalValence()
    if z == 15:
        key += {3: "+3", 5: "+5"}[v]
    elif z == 16 and atom.GetHybridization() != HYB.SP2:
        key += {2: "+2", 4: "+4", 6: "+6"}[v]
    elif z in (34, 52, 84):
        key += {2: "+2"}[v]
    return key


def rest_length(bo, a, b):
    ri, rj = a["r1"], b["r1"]
    r_bo = -LAMBDA * (ri + rj) * math.log(bo)
    xi, xj = a["Xi"], b["Xi"]
    r_en = ri * rj * (math.sqrt(xi) - math.sqrt(xj)) ** 2 / (xi * ri + xj * rj)
    return ri + rj + r_bo - r_en


def close(a, b, what, rel=1e-9):
    if abs(a - b) > rel * max(abs(b), 1e-12):
        raise SystemExit(f"uff_rdkit_reference: {what}: table gives {a!r}, RDKit {b!r}")


def build(name, smiles, seed, sigma):
    mol = Chem.AddHs(Chem.MolFromSmiles(smiles))
    params = AllChem.ETKDGv3()
    params.randomSeed = seed
    if AllChem.EmbedMolecule(mol, params) != 0:
        raise SystemExit(f"uff_rdkit_reference: {name}: embedding failed")
    # ETKDG embeds the fragments of a multi-fragment SMILES on top of each other:
    # put fragment k 5*k A from the first along x (centroids).
    frags = Chem.GetMolFrags(mol)
    conf = mol.GetConformer()
    if len(frags) > 1:
        def centroid(atoms):
            ps = [conf.GetAtomPosition(i) for i in atoms]
            return [sum(getattr(p, c) for p in ps) / len(ps) for c in "xyz"]
        c0 = centroid(frags[0])
        for k, atoms in enumerate(frags[1:], start=1):
            ck = centroid(atoms)
            shift = [c0[0] + 5.0 * k - ck[0], c0[1] - ck[1], c0[2] - ck[2]]
            for i in atoms:
                p = conf.GetAtomPosition(i)
                conf.SetAtomPosition(i, (p.x + shift[0], p.y + shift[1], p.z + shift[2]))
    if sigma > 0:
        rng = random.Random(seed * 7919 + 1)
        conf = mol.GetConformer()
        for i in range(mol.GetNumAtoms()):
            p = conf.GetAtomPosition(i)
            conf.SetAtomPosition(i, (p.x + rng.gauss(0, sigma), p.y + rng.gauss(0, sigma),
                                     p.z + rng.gauss(0, sigma)))
    mol.SetProp("_Name", name)
    block = Chem.MolToMolBlock(mol, kekulize=True)
    back = Chem.MolFromMolBlock(block, removeHs=False)
    if back is None or back.GetNumAtoms() != mol.GetNumAtoms():
        raise SystemExit(f"uff_rdkit_reference: {name}: mol block did not read back")
    if not uff.UFFHasAllMoleculeParams(back):
        raise SystemExit(f"uff_rdkit_reference: {name}: RDKit has no UFF parameters")
    return block, back


def terms(mol, table, labels):
    """Every term RDKit gives parameters for, each checked against the table."""
    p = [table[l] for l in labels]
    out = []
    ring = mol.GetRingInfo()
    for b in mol.GetBonds():
        i, j = b.GetBeginAtomIdx(), b.GetEndAtomIdx()
        kb, r0 = uff.GetUFFBondStretchParams(mol, i, j)
        bo = b.GetBondTypeAsDouble()
        r = rest_length(bo, p[i], p[j])
        close(r, r0, f"bond {i}-{j} r0")
        close(2 * G * p[i]["Z1"] * p[j]["Z1"] / r ** 3, kb, f"bond {i}-{j} kb")
        out.append(f"bond {i} {j} {kb:.10g} {r0:.10g}")
    for a in mol.GetAtoms():
        j = a.GetIdx()
        nb = [n.GetIdx() for n in a.GetNeighbors()]
        # sp2 centres in 3- and 4-rings get other natural angles in RDKit's builder than
        # the getter reports; those angles are marked so the comparison skips them.
        hack = a.GetHybridization() == HYB.SP2 and (ring.IsAtomInRingOfSize(j, 3)
                                                     or ring.IsAtomInRingOfSize(j, 4))
        for x in range(len(nb)):
            for y in range(x + 1, len(nb)):
                i, k = nb[x], nb[y]
                ka, th = uff.GetUFFAngleBendParams(mol, i, j, k)
                close(math.radians(th), p[j]["theta0"], f"angle {i}-{j}-{k} theta0", 1e-12)
                bij = mol.GetBondBetweenAtoms(i, j).GetBondTypeAsDouble()
                bjk = mol.GetBondBetweenAtoms(j, k).GetBondTypeAsDouble()
                r12 = rest_length(bij, p[i], p[j])
                r23 = rest_length(bjk, p[j], p[k])
                c = math.cos(p[j]["theta0"])
                r13 = math.sqrt(r12 * r12 + r23 * r23 - 2 * r12 * r23 * c)
                kk = (2 * G / (r12 * r23) * p[i]["Z1"] * p[k]["Z1"] / r13 ** 5 * r12 * r23 *
                      (3 * r12 * r23 * (1 - c * c) - r13 * r13 * c))
                close(kk, ka, f"angle {i}-{j}-{k} ka")
                out.append(f"angle {i} {j} {k} {ka:.10g} {th:.10g} {int(hack)}")
    for b in mol.GetBonds():
        j, k = b.GetBeginAtomIdx(), b.GetEndAtomIdx()
        for i in (n.GetIdx() for n in mol.GetAtomWithIdx(j).GetNeighbors()):
            for l in (n.GetIdx() for n in mol.GetAtomWithIdx(k).GetNeighbors()):
                if i == k or l == j or i == l:
                    continue
                v = uff.GetUFFTorsionParams(mol, i, j, k, l)
                if v is not None:
                    out.append(f"torsion {i} {j} {k} {l} {v:.10g}")
    for a in mol.GetAtoms():
        nb = [n.GetIdx() for n in a.GetNeighbors()]
        if len(nb) != 3:
            continue
        kinv = uff.GetUFFInversionParams(mol, nb[0], a.GetIdx(), nb[1], nb[2])
        if kinv is not None:
            out.append(f"inversion {nb[0]} {a.GetIdx()} {nb[1]} {nb[2]} {kinv:.10g}")
    for a in mol.GetAtoms():
        i = a.GetIdx()
        x, d = uff.GetUFFVdWParams(mol, i, i)
        close(p[i]["x1"], x, f"vdW x of atom {i}", 1e-12)
        close(p[i]["D1"], d, f"vdW D of atom {i}", 1e-12)
    return out


def fd_gradient(ff, h=2e-3):
    """dE/dx of RDKit's energy by the 4-point central difference (error O(h^4))."""
    x0 = list(ff.Positions())
    out = []
    for i in range(len(x0)):
        e = []
        for step in (-2, -1, 1, 2):
            x = list(x0)
            x[i] += step * h
            e.append(ff.CalcEnergy(x))
        out.append((e[0] - 8 * e[1] + 8 * e[2] - e[3]) / (12 * h))
    return out


def reference(name, smiles, mol, table, with_terms):
    labels = [uff_label(a) for a in mol.GetAtoms()]
    for l in labels:
        if l not in table:
            raise SystemExit(f"uff_rdkit_reference: {name}: label {l} not in the table")
    ff = uff.UFFGetMoleculeForceField(mol)
    e = ff.CalcEnergy()
    grad = ff.CalcGrad()
    e_bonded = uff.UFFGetMoleculeForceField(mol, vdwThresh=0.0).CalcEnergy()
    e_all = uff.UFFGetMoleculeForceField(mol, ignoreInterfragInteractions=False).CalcEnergy()
    # RDKit's analytic gradient is checked against a 4-point central difference of its
    # own energy. They disagree where RDKit's inversion gradient is not the derivative
    # of its inversion energy (the C2 term of group-15 centres, e.g. trivalent P, has
    # the wrong sign in RDKit 2022.09); there the difference gradient is recorded too
    # and is what the comparison uses.
    fd = fd_gradient(ff)
    num = sum((a - b) ** 2 for a, b in zip(grad, fd))
    den = sum(b * b for b in fd)
    consistency = math.sqrt(num / den) if den > 0 else math.sqrt(num)
    lines = [f"molecule {name}", f"smiles {smiles}", f"atoms {mol.GetNumAtoms()}",
             f"fragments {len(Chem.GetMolFrags(mol))}",
             f"energy_total_kcal_per_mol {e:.12g}",
             f"energy_bonded_kcal_per_mol {e_bonded:.12g}",
             f"energy_vdw_kcal_per_mol {e - e_bonded:.12g}",
             f"energy_total_interfragment_kcal_per_mol {e_all:.12g}",
             "types " + " ".join(labels),
             "hybridization " + " ".join(HYB_NAME[a.GetHybridization()] for a in mol.GetAtoms()),
             "aromatic " + " ".join(str(int(a.GetIsAromatic())) for a in mol.GetAtoms()),
             "bond_orders " + " ".join(f"{b.GetBondTypeAsDouble():g}" for b in mol.GetBonds()),
             "gradient_kcal_per_mol_per_a"]
    n = mol.GetNumAtoms()
    for i in range(n):
        lines.append(" ".join(f"{grad[3 * i + d]:.10e}" for d in range(3)))
    lines.append(f"gradient_vs_energy_difference_rms_rel {consistency:.3e}")
    if consistency > 1e-6:
        lines.append("gradient_fd_kcal_per_mol_per_a")
        for i in range(n):
            lines.append(" ".join(f"{fd[3 * i + d]:.10e}" for d in range(3)))
    if with_terms:
        lines += terms(mol, table, labels)
    lines.append("end")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "uff"))
    ap.add_argument("--assets", default=os.path.join(ROOT, "assets"))
    ap.add_argument("--check", action="store_true",
                    help="regenerate in memory and compare with the files instead of writing")
    args = ap.parse_args()
    # The typer warns that it takes P as sp3 whatever its hybridisation (PF5): expected.
    RDLogger.DisableLog("rdApp.warning")
    table = read_table(os.path.join(args.assets, "uff_params.txt"))

    sdf, ref = [], ["# RDKit UFF reference for vkmd, written by tests/oracles/uff_rdkit_reference.py.",
                    "# Units: kcal/mol, angstrom, degrees; gradient = dE/dx (kcal/mol/A).",
                    "# Atom indices are 0-based; record k is the k-th record of molecules.sdf.",
                    f"rdkit_version {rdBase.rdkitVersion}"]
    builtins = {}
    seen = set()
    for name, smiles, seed, sigma in MOLECULES:
        block, mol = build(name, smiles, seed, sigma)
        sdf.append(block + "$$$$\n")
        # Perturbed copies have the parameters of their parent: listed once.
        ref += reference(name, smiles, mol, table, smiles not in seen)
        seen.add(smiles)
        if name in BUILTINS:
            builtins[name] = block + "$$$$\n"
    files = {os.path.join(args.out, "molecules.sdf"): "".join(sdf),
             os.path.join(args.out, "rdkit_reference.txt"): "\n".join(ref) + "\n"}
    for name, text in builtins.items():
        files[os.path.join(args.assets, "molecules", name + ".sdf")] = text
    bad = 0
    for path, text in files.items():
        if args.check:
            old = open(path).read() if os.path.exists(path) else None
            if old != text:
                print(f"differs: {path}")
                bad += 1
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            print(f"wrote {path} ({len(text)} bytes)")
    print(f"{len(MOLECULES)} molecules, RDKit {rdBase.rdkitVersion}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
