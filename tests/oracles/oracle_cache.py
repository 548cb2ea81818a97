#!/usr/bin/python3
"""Runs an oracle script (a ctest fixture that builds systems and evaluates
them with OpenMM) once per set of inputs and copies its outputs into --out.

Usage: oracle_cache.py --cache DIR --out OUT SCRIPT [ARGS...]
runs `SCRIPT ARGS... --out TMP` unless DIR already holds the outputs of the
same script, arguments and inputs, then copies every file of them into OUT.

The key is a SHA-256 of the script's name and arguments, of every file in
tests/oracles/ (the scripts import each other) and tests/data/ (their
inputs), and of the versions of the Python packages the oracles use. The
normal and the sanitizer build trees (build/, build-asan/) share DIR (the
CMake cache variable VKMD_ORACLE_CACHE, default build-oracles/ beside
them), so a CI run builds the OpenMM systems once: the second pass reads
the first pass's files. Every file a test compares against (coordinates and
OpenMM's energies and forces on them) comes from one run of the script, so
the files of an earlier run are as good an oracle as a new run's (a
minimisation on OpenMM's multithreaded CPU platform need not repeat to the
last bit). A run that fails leaves
nothing in DIR; outputs appear there by an atomic rename, so two runs at
once each use whole outputs.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), 'data')


def key_of(script, args):
    h = hashlib.sha256()
    h.update(os.path.basename(script).encode() + b'\0')
    for a in args:
        h.update(a.encode() + b'\0')
    for root in (HERE, DATA):
        for d, dirs, files in sorted(os.walk(root)):
            dirs[:] = sorted(x for x in dirs if x != '__pycache__')
            for name in sorted(files):
                path = os.path.join(d, name)
                h.update(os.path.relpath(path, root).encode() + b'\0')
                with open(path, 'rb') as f:
                    h.update(hashlib.sha256(f.read()).digest())
    for pkg in ('openmm', 'ParmEd', 'numpy', 'scipy', 'rdkit'):
        try:
            h.update(f'{pkg}={metadata.version(pkg)}'.encode() + b'\0')
        except metadata.PackageNotFoundError:
            h.update(f'{pkg}=none'.encode() + b'\0')
    return h.hexdigest()[:20]


def main():
    argv = sys.argv[1:]
    try:
        cache = argv[argv.index('--cache') + 1]
        out = argv[argv.index('--out') + 1]
    except (ValueError, IndexError):
        sys.exit(__doc__)
    rest = [a for i, a in enumerate(argv)
            if a not in ('--cache', '--out') and (i == 0 or argv[i - 1] not in ('--cache', '--out'))]
    script, args = rest[0], rest[1:]
    name = os.path.splitext(os.path.basename(script))[0]
    entry = os.path.join(cache, f'{name}-{key_of(script, args)}')
    if os.path.isdir(entry):
        print(f'oracle_cache: {name}: outputs of the same inputs in {entry}')
    else:
        os.makedirs(cache, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=f'{name}-', suffix='.tmp', dir=cache)
        r = subprocess.run([sys.executable, script, *args, '--out', tmp])
        if r.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            sys.exit(r.returncode)
        try:
            os.rename(tmp, entry)
        except OSError:  # another run got there first: its outputs are the same
            shutil.rmtree(tmp, ignore_errors=True)
        print(f'oracle_cache: {name}: outputs kept in {entry}')
    os.makedirs(out, exist_ok=True)
    for f in sorted(os.listdir(entry)):
        src = os.path.join(entry, f)
        if os.path.isfile(src):
            shutil.copy2(src, os.path.join(out, f))


if __name__ == '__main__':
    main()
