#!/usr/bin/python3
"""A small RDKit ETKDG multi-conformer SDF for tests/test_uff_conformers_cli.sh:
the input of the conformer workflow (`vkmd uff relax confs.sdf --out ...`).

    /usr/bin/python3 tests/oracles/uff_conformers_rdkit.py          # rewrite the committed file
    /usr/bin/python3 tests/oracles/uff_conformers_rdkit.py --check  # regenerate in memory, compare

Writes tests/data/uff/etkdg_conformers.sdf: 6 ETKDGv3 conformers (random
seed 42, no pruning, not minimised) of each of glycerol and butan-1-ol,
interleaved (glycerol, butanol, glycerol, ...), so the file mixes two
molecules as a screening file may. Titles "<name> conf <k>". RDKit's own
SDF writer, V2000, 4 decimals.
"""
import argparse
import os
import sys

from rdkit import Chem
from rdkit.Chem import AllChem

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "uff", "etkdg_conformers.sdf")
MOLECULES = [("glycerol", "OCC(O)CO"), ("butan-1-ol", "CCCCO")]
CONFORMERS = 6


def generate():
    mols = []
    for name, smiles in MOLECULES:
        mol = Chem.AddHs(Chem.MolFromSmiles(smiles))
        params = AllChem.ETKDGv3()
        params.randomSeed = 42
        ids = list(AllChem.EmbedMultipleConfs(mol, numConfs=CONFORMERS, params=params))
        if len(ids) != CONFORMERS:
            raise RuntimeError("ETKDG made %d conformers of %s" % (len(ids), name))
        mols.append((name, mol, ids))
    sio = []
    for k in range(CONFORMERS):
        for name, mol, ids in mols:
            mol.SetProp("_Name", "%s conf %d" % (name, k + 1))
            sio.append(Chem.MolToMolBlock(mol, confId=ids[k]) + "$$$$\n")
    return "".join(sio)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    args = ap.parse_args()
    text = generate()
    if args.check:
        with open(OUT) as f:
            same = f.read() == text
        print("etkdg_conformers.sdf: %s" % ("identical" if same else "DIFFERS"))
        return 0 if same else 1
    with open(OUT, "w") as f:
        f.write(text)
    print("wrote %s" % OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
