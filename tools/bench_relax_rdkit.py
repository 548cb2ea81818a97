#!/usr/bin/python3
"""Relaxations per second, RDKit (one core) and vkmd (one batch) side by side
on the same machine, for docs/BENCHMARKS.md.

usage: /usr/bin/python3 tools/bench_relax_rdkit.py --vkmd build/vkmd [--replicas 1000]
           [--minimizer lbfgs|fire] [--molecule xylitol] [--seconds 10] [--device N]

RDKit: UFFGetMoleculeForceField + Minimize (BFGS, forceTol 1e-4, maxIts
10000) from perturbed copies of the molecule (every coordinate displaced by
up to 0.2 A, fixed seed), one after another in this process, for --seconds;
its iterations per minimisation are counted by bisection on a sample of 20
starts (RDKit's Python API does not return them). vkmd: `vkmd bench --uff
--relax --replicas R --repeat 1` (the same kind of starts, its own seed),
wall time of relaxing the whole batch, pipeline setup included. The load
average is printed: on a shared machine both figures move with it; so the
CPU time each side used is printed too (relaxations per CPU second: RDKit's
timed loop; vkmd's whole process, all its threads).
Run with /usr/bin/python3 (Debian's python3-rdkit)."""
import argparse
import json
import os
import random
import resource
import subprocess
import tempfile
import time

from rdkit import Chem, rdBase
from rdkit import ForceField  # noqa: F401  (registers the force-field class)
from rdkit.Chem import rdForceFieldHelpers

HERE = os.path.dirname(os.path.abspath(__file__))


def rdkit_rate(path, seconds):
    mol = Chem.MolFromMolFile(path, removeHs=False)
    conf = mol.GetConformer()
    base = [conf.GetAtomPosition(i) for i in range(mol.GetNumAtoms())]
    rng = random.Random(20261122)

    def perturb():
        for i, p in enumerate(base):
            conf.SetAtomPosition(i, (p.x + 0.4 * (rng.random() - 0.5),
                                     p.y + 0.4 * (rng.random() - 0.5),
                                     p.z + 0.4 * (rng.random() - 0.5)))

    n, t0, c0 = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        perturb()
        ff = rdForceFieldHelpers.UFFGetMoleculeForceField(mol)
        ff.Minimize(maxIts=10000, forceTol=1e-4)
        n += 1
    rate = n / (time.perf_counter() - t0)
    rate_cpu = n / (time.process_time() - c0)
    its = []
    for _ in range(20):
        perturb()
        start = [tuple(conf.GetAtomPosition(i)) for i in range(mol.GetNumAtoms())]

        def ok(k):
            for i, p in enumerate(start):
                conf.SetAtomPosition(i, p)
            return rdForceFieldHelpers.UFFGetMoleculeForceField(mol).Minimize(maxIts=k) == 0

        lo, hi = 0, 1
        while not ok(hi):
            lo, hi = hi, 2 * hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if ok(mid) else (mid, hi)
        its.append(hi)
    its.sort()
    return rate, rate_cpu, its[len(its) // 2], its[-1], mol.GetNumAtoms()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--vkmd', required=True)
    ap.add_argument('--replicas', type=int, default=1000)
    ap.add_argument('--minimizer', default='lbfgs')
    ap.add_argument('--molecule', default='xylitol')
    ap.add_argument('--seconds', type=float, default=10.0)
    ap.add_argument('--device', default=None)
    a = ap.parse_args()
    path = os.path.join(HERE, '..', 'assets', 'molecules', a.molecule + '.sdf')
    print('load average before: %s' % ' '.join(open('/proc/loadavg').read().split()[:3]))
    rate, rate_cpu, med, mx, atoms = rdkit_rate(path, a.seconds)
    print('RDKit %s UFF, %s (%d atoms), one core: %.1f minimisations/s (BFGS, forceTol 1e-4; '
          '%.1f per CPU second); iterations median %d, max %d (20 starts)'
          % (rdBase.rdkitVersion, a.molecule, atoms, rate, rate_cpu, med, mx))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'r.json')
        cmd = [a.vkmd, 'bench', '--uff', '--relax', '--minimizer', a.minimizer, '--molecule',
               a.molecule, '--replicas', str(a.replicas), '--repeat', '1', '--json', out]
        if a.device:
            cmd += ['--device', a.device]
        print('$ ' + ' '.join(cmd))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        d = json.load(open(out))
    r = d['runs'][0]
    print('vkmd %s on %s, R = %d: %.1f relaxations/s (%.1f s for the batch), %d/%d converged, '
          'iterations median %.1f, max %d, %.0f evaluations/s while relaxing; pass alone %.0f '
          'evaluations/s' % (d['minimizer'], d['device'], r['replicas'], r['relaxations_per_s'],
                             r['relax_s'], r['relax_converged'], r['replicas'],
                             r['relax_median_steps'], r['relax_max_steps'], r['relax_evals_per_s'],
                             r['evals_per_s']))
    print('vkmd / RDKit: %.2f' % (r['relaxations_per_s'] / rate))
    # On a shared machine both wall-clock rates move with the load; CPU time
    # moves much less. vkmd's is the whole process (pipeline setup, the pass
    # timing and the CPU-reference timing of `vkmd bench` included).
    print('per CPU second: vkmd %.1f relaxations (%.1f s of CPU, all threads), RDKit %.1f; '
          'ratio %.2f' % (r['replicas'] / cpu, cpu, rate_cpu, r['replicas'] / cpu / rate_cpu))
    print('load average after: %s' % ' '.join(open('/proc/loadavg').read().split()[:3]))


if __name__ == '__main__':
    main()
