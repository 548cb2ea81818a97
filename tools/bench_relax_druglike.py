#!/usr/bin/python3
"""UFF relaxation of a drug-like set, RDKit (one core) and vkmd side by side on
the same machine, with the minima compared record by record (docs/UFF_RELAX.md).

usage: /usr/bin/python3 tools/bench_relax_druglike.py --generate SET.sdf
           [--molecules NAME,NAME,...] [--confs N]
       /usr/bin/python3 tools/bench_relax_druglike.py --vkmd build/vkmd --sdf SET.sdf
           [--device N] [--memory M] [--max-iterations N] [--repeat K]
       /usr/bin/python3 tools/bench_relax_druglike.py --sdf SET.sdf --check VKMD.json
           [--min-same F]

--generate writes the set: 24 drug-like molecules (20-76 atoms with
hydrogens; SMILES below), 8 RDKit ETKDGv3 conformers each (fixed seed), 192
records named MOLECULE_CONF, consecutive by molecule. The timing reads that
file: RDKit relaxes each molecule's conformers with
UFFOptimizeMoleculeConfs(numThreads=1, maxIters) (BFGS, forceTol 1e-4, the
same criterion vkmd's default L-BFGS family uses), one molecule after
another in this process; vkmd is the whole command `vkmd uff relax SET.sdf
--out TMP --json` (start-up and pipeline compiles included), its wall time
measured around the process. Each side's best of --repeat runs is reported,
with the load average. Minima: a record is "same" when vkmd's final energy
is within 1e-3 kcal/mol (or 1e-6 relative) of RDKit's from the same start,
"lower" or "higher" otherwise; a higher one is "another minimum" when it
is within 1e-3 kcal/mol of RDKit's minimum from another conformer of the
same molecule. --check compares the records of `vkmd uff relax SET.sdf
--json` output with RDKit's from the same starts and exits 1 unless every
record converged, at most one in a hundred ends higher than every minimum
RDKit reaches (same start or other conformers), and at least --min-same
(default 0.85)
of them end in RDKit's minimum from the same start (tests/
test_uff_relax_druglike.sh). Run with /usr/bin/python3 (Debian's
python3-rdkit)."""
import argparse
import json
import os
import subprocess
import tempfile
import time

from rdkit import Chem, rdBase
from rdkit.Chem import AllChem

SMILES = [
    ('imatinib', 'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1'),
    ('atorvastatin', 'CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)'
     'CC(=O)O'),
    ('sildenafil', 'CCCc1nn(C)c2c(=O)[nH]c(-c3cc(S(=O)(=O)N4CCN(C)CC4)ccc3OCC)nc12'),
    ('losartan', 'CCCCc1nc(Cl)c(CO)n1Cc1ccc(-c2ccccc2-c2nn[nH]n2)cc1'),
    ('ibuprofen', 'CC(C)Cc1ccc(C(C)C(=O)O)cc1'),
    ('caffeine', 'Cn1cnc2c1c(=O)n(C)c(=O)n2C'),
    ('paracetamol', 'CC(=O)Nc1ccc(O)cc1'),
    ('diazepam', 'CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21'),
    ('fluoxetine', 'CNCCC(Oc1ccc(C(F)(F)F)cc1)c1ccccc1'),
    ('omeprazole', 'COc1ccc2[nH]c(S(=O)Cc3ncc(C)c(OC)c3C)nc2c1'),
    ('celecoxib', 'Cc1ccc(-c2cc(C(F)(F)F)nn2-c2ccc(S(N)(=O)=O)cc2)cc1'),
    ('warfarin', 'CC(=O)CC(c1ccccc1)c1c(O)c2ccccc2oc1=O'),
    ('naproxen', 'COc1ccc2cc(C(C)C(=O)O)ccc2c1'),
    ('propranolol', 'CC(C)NCC(O)COc1cccc2ccccc12'),
    ('ciprofloxacin', 'OC(=O)c1cn(C2CC2)c2cc(N3CCNCC3)c(F)cc2c1=O'),
    ('clopidogrel', 'COC(=O)C(c1ccccc1Cl)N1CCc2sccc2C1'),
    ('amlodipine', 'CCOC(=O)C1=C(COCCN)NC(C)=C(C(=O)OC)C1c1ccccc1Cl'),
    ('tamoxifen', 'CCC(=C(c1ccccc1)c1ccc(OCCN(C)C)cc1)c1ccccc1'),
    ('haloperidol', 'OC1(CCN(CCCC(=O)c2ccc(F)cc2)CC1)c1ccc(Cl)cc1'),
    ('cetirizine', 'OC(=O)COCCN1CCN(C(c2ccccc2)c2ccc(Cl)cc2)CC1'),
    ('diphenhydramine', 'CN(C)CCOC(c1ccccc1)c1ccccc1'),
    ('lidocaine', 'CCN(CC)CC(=O)Nc1c(C)cccc1C'),
    ('sertraline', 'CN[C@H]1CC[C@@H](c2ccc(Cl)c(Cl)c2)c2ccccc21'),
    ('verapamil', 'COc1ccc(CCN(C)CCCC(C#N)(C(C)C)c2ccc(OC)c(OC)c2)cc1OC'),
]
CONFS = 8
SEED = 20261128


def generate(path, names=None, confs=CONFS):
    known = dict(SMILES)
    for n in names or []:
        if n not in known:
            raise SystemExit(f'--molecules: unknown molecule {n!r} (known: {", ".join(known)})')
    w = Chem.SDWriter(path)
    for name, smi in SMILES:
        if names and name not in names:
            continue
        m = Chem.AddHs(Chem.MolFromSmiles(smi))
        p = AllChem.ETKDGv3()
        p.randomSeed = SEED
        ids = list(AllChem.EmbedMultipleConfs(m, confs, p))
        if len(ids) != confs:
            raise SystemExit(f'{name}: {len(ids)} conformers embedded, expected {confs}')
        for c in ids:
            m.SetProp('_Name', f'{name}_{c}')
            w.write(m, confId=c)
    w.close()


def read_set(path):
    """[(name, mol with its conformers)] in file order, records grouped by molecule."""
    groups = []
    for m in Chem.SDMolSupplier(path, removeHs=False):
        if m is None:
            raise SystemExit(f'{path}: a record RDKit cannot read')
        base = m.GetProp('_Name').rsplit('_', 1)[0]
        if groups and groups[-1][0] == base:
            groups[-1][1].AddConformer(m.GetConformer(), assignId=True)
        else:
            groups.append((base, Chem.Mol(m)))
    return groups


def rdkit_run(groups, max_its):
    # UFFOptimizeMoleculeConfs moves the conformers it is given: each run
    # relaxes copies, so that a repeat starts from the file's coordinates.
    mols = [Chem.Mol(mol) for _, mol in groups]
    energies, converged = [], 0
    t0 = time.perf_counter()
    for mol in mols:
        res = AllChem.UFFOptimizeMoleculeConfs(mol, numThreads=1, maxIters=max_its)
        for not_conv, e in res:
            energies.append(e)
            converged += not_conv == 0
    return time.perf_counter() - t0, energies, converged


def classify(e_v, e_r, groups):
    """Per record: 'same', 'lower', 'other' (another RDKit minimum of the
    molecule) or 'higher', against RDKit's energies from the same starts."""
    out, k = [], 0
    for _, mol in groups:
        mine = e_r[k:k + mol.GetNumConformers()]
        for j in range(mol.GetNumConformers()):
            ev, er = e_v[k + j], mine[j]
            close = lambda a, b: abs(a - b) <= max(1e-3, 1e-6 * abs(b))
            if close(ev, er):
                out.append('same')
            elif ev < er:
                out.append('lower')
            elif any(close(ev, o) or ev < o for o in mine):
                out.append('other')
            else:
                out.append('higher')
        k += mol.GetNumConformers()
    return out


def check(sdf, path, max_its, min_same):
    groups = read_set(sdf)
    _, e_r, conv_r = rdkit_run(groups, max_its)
    js = json.load(open(path))
    reps = sorted(js['replicas'], key=lambda r: r['replica'])
    if len(reps) != len(e_r):
        raise SystemExit(f'{path}: {len(reps)} records, {sdf} has {len(e_r)}')
    kinds = classify([r['energy_final_kcal_per_mol'] for r in reps], e_r, groups)
    n = len(kinds)
    count = {k: kinds.count(k) for k in ('same', 'lower', 'other', 'higher')}
    unconv = [r['replica'] for r in reps if not r['converged']]
    print(f'{sdf}: {n} records; vkmd ({js["device"]}): {n - len(unconv)} converged; against '
          f'RDKit from the same start: {count["same"]} same, {count["lower"]} lower, '
          f'{count["other"]} in another RDKit minimum, {count["higher"]} higher than all '
          f'(RDKit converged {conv_r} of {n})')
    # RDKit's few starts need not reach every minimum our path does: one
    # record in a hundred may end in a minimum above all of RDKit's.
    ok = not unconv and count['higher'] <= n // 100 and count['same'] >= min_same * n
    if not ok:
        print(f'FAIL: unconverged {unconv}; higher '
              f'{[i + 1 for i, k in enumerate(kinds) if k == "higher"]}; same {count["same"]} '
              f'< {min_same} x {n}?')
    return 0 if ok else 1


def vkmd_run(vkmd, sdf, device, memory, max_its):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'out.sdf')
        cmd = [vkmd, 'uff', 'relax', sdf, '--out', out, '--json', '--max-iterations', str(max_its)]
        if device is not None:
            cmd += ['--device', device]
        if memory is not None:
            cmd += ['--memory', str(memory)]
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        t = time.perf_counter() - t0
        if p.returncode != 0:
            raise SystemExit(f'{" ".join(cmd)}: exit {p.returncode}\n{p.stderr}')
        return t, json.loads(p.stdout), ' '.join(cmd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--generate')
    ap.add_argument('--vkmd')
    ap.add_argument('--sdf')
    ap.add_argument('--device')
    ap.add_argument('--memory', type=int)
    ap.add_argument('--max-iterations', type=int, default=1000)
    ap.add_argument('--repeat', type=int, default=1)
    ap.add_argument('--molecules', help='--generate: these molecules only (comma-separated)')
    ap.add_argument('--confs', type=int, default=CONFS, help='--generate: conformers each')
    ap.add_argument('--check', help='vkmd uff relax --json output to compare with RDKit')
    ap.add_argument('--min-same', type=float, default=0.85)
    a = ap.parse_args()
    if a.generate:
        generate(a.generate, a.molecules.split(',') if a.molecules else None, a.confs)
        return
    if a.check:
        if not a.sdf:
            ap.error('--check needs --sdf')
        raise SystemExit(check(a.sdf, a.check, a.max_iterations, a.min_same))
    if not (a.vkmd and a.sdf):
        ap.error('--vkmd and --sdf (or --generate)')
    groups = read_set(a.sdf)
    n = sum(m.GetNumConformers() for _, m in groups)
    sizes = [m.GetNumAtoms() for _, m in groups]
    print(f'{a.sdf}: {len(groups)} molecules, {n} records, {min(sizes)}-{max(sizes)} atoms; '
          f'RDKit {rdBase.rdkitVersion}; load average {os.getloadavg()[0]:.2f}')
    t_r, e_r, conv_r = min((rdkit_run(groups, a.max_iterations) for _ in range(a.repeat)),
                           key=lambda x: x[0])
    t_v, js, cmd = min((vkmd_run(a.vkmd, a.sdf, a.device, a.memory, a.max_iterations)
                        for _ in range(a.repeat)), key=lambda x: x[0])
    reps = sorted(js['replicas'], key=lambda r: r['replica'])
    e_v = [r['energy_final_kcal_per_mol'] for r in reps]
    kinds = classify(e_v, e_r, groups)
    same, lower = kinds.count('same'), kinds.count('lower')
    other, higher = kinds.count('other'), kinds.count('higher')
    its = sorted(r['iterations'] for r in reps)
    print(f'RDKit UFFOptimizeMoleculeConfs (1 thread): {t_r:.2f} s, {n / t_r:.1f} relaxations/s, '
          f'{conv_r} of {n} converged')
    print(f'vkmd ({cmd}): {t_v:.2f} s, {n / t_v:.1f} relaxations/s, {js["n_converged"]} of {n} '
          f'converged, iterations median {its[len(its) // 2]} max {its[-1]}, '
          f'{js.get("host_checks", "?")} host checks; device {js["device"]}')
    print(f'vkmd / RDKit speed: {t_r / t_v:.2f}x; minima against RDKit from the same start: '
          f'{same} same, {lower} lower, {other} in another RDKit minimum, {higher} higher than '
          f'all (of {n})')
    print(f'load average after: {os.getloadavg()[0]:.2f}')


if __name__ == '__main__':
    main()
