#!/usr/bin/python3
"""Chooses the tests the sanitizer pass leaves out (tests/sanitize_skip.txt)
by line coverage of the product's host code (engine/, tools/, viewer/).
ASan and UBSan see host code only (not shaders), so a test whose host lines
other tests already run under the sanitizer adds little it could find.

A greedy cover picks tests by new lines per second of test time until the
next best adds fewer than --min-rate lines per second (default 1.0); the
fault-injection tests (test_fault_*) are always kept, since error paths are
where leaks hide. The rest are written to the skip file with what each
would add, and the lines no kept test covers are listed there too. A test
not named in the file runs under the sanitizer, so new tests do until the
file is made again.

Usage: tests/sanitize_select.py [--build DIR] [--jobs N] [--out FILE]
           [--min-rate R] [--skip-run]
Builds DIR (default build-cov/) with gcc --coverage, runs every test that
the sanitizer pass may run (not labelled variant, statistics or oracle) with
VKMD_TEST_QUICK=1 as that pass does, each with its own GCOV_PREFIX (kept
in --cov, default /tmp/vkmd-cov; --skip-run reuses it). Takes about as long
as the sanitizer pass itself (15-20 min on 2 cores).
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRODUCT = ('engine/', 'tools/', 'viewer/')


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def test_names(build, select):
    out = subprocess.run(['ctest', '--test-dir', build, '-N'] + select, check=True,
                         capture_output=True, text=True).stdout
    return re.findall(r'Test +#\d+: (\S+)', out)


def run_one(build, name, prefix, env):
    e = dict(env, GCOV_PREFIX=prefix, GCOV_PREFIX_STRIP='0')
    t0 = time.time()
    r = subprocess.run(['ctest', '--test-dir', build, '-R', '^' + re.escape(name) + '$',
                        '-FA', '.*', '--output-on-failure'], env=e, capture_output=True,
                       text=True)
    return name, r.returncode, time.time() - t0, r.stdout[-2000:]


def lines_of(build, prefix):
    """(file, line) pairs with a non-zero count in the product's sources."""
    covered = set()
    for d, _, files in os.walk(prefix):
        for f in files:
            if not f.endswith('.gcda'):
                continue
            gcda = os.path.join(d, f)
            gcno_src = os.path.join(d[len(prefix):], f[:-5] + '.gcno')
            if not os.path.exists(gcno_src):
                continue
            shutil.copy(gcno_src, gcda[:-5] + '.gcno')
            r = subprocess.run(['gcov', '-t', '-j', gcda], cwd=d, capture_output=True, text=True)
            for doc in r.stdout.splitlines():
                doc = doc.strip()
                if not doc.startswith('{'):
                    continue
                for fi in json.loads(doc).get('files', []):
                    path = os.path.normpath(os.path.join(build, fi['file'])) \
                        if not os.path.isabs(fi['file']) else os.path.normpath(fi['file'])
                    rel = os.path.relpath(path, ROOT)
                    if not rel.startswith(PRODUCT):
                        continue
                    for ln in fi['lines']:
                        if ln['count'] > 0:
                            covered.add((rel, ln['line_number']))
    return covered


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default=os.path.join(ROOT, 'build-cov'))
    ap.add_argument('--jobs', type=int, default=os.cpu_count())
    ap.add_argument('--out', default=os.path.join(ROOT, 'tests', 'sanitize_skip.txt'))
    ap.add_argument('--min-rate', type=float, default=1.0)
    ap.add_argument('--cov', default='/tmp/vkmd-cov')
    ap.add_argument('--skip-run', action='store_true', help='reuse --cov from a run before')
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    if not a.skip_run:
        sh(['cmake', '-S', ROOT, '-B', build, '-DCMAKE_BUILD_TYPE=RelWithDebInfo',
            '-DCMAKE_C_FLAGS=--coverage', '-DCMAKE_EXE_LINKER_FLAGS=--coverage',
            '-DCMAKE_SHARED_LINKER_FLAGS=--coverage'], stdout=subprocess.DEVNULL)
        sh(['cmake', '--build', build, '-j', str(os.cpu_count())], stdout=subprocess.DEVNULL)
        shutil.rmtree(a.cov, ignore_errors=True)
    env = dict(os.environ, VKMD_TEST_QUICK='1', LP_NUM_THREADS='1', VKMD_REQUIRE_DEVICE='1',
               VKMD_REQUIRE_MPI='1')
    names = test_names(build, ['-LE', 'variant|statistics|oracle'])
    times = {}
    if not a.skip_run:
        # The oracle fixtures first (their outputs are shared through the cache).
        sh(['ctest', '--test-dir', build, '-L', 'oracle', '-j', str(a.jobs)], env=env,
           stdout=subprocess.DEVNULL)
        with cf.ThreadPoolExecutor(a.jobs) as ex:
            futs = [ex.submit(run_one, build, n, os.path.join(a.cov, n), env) for n in names]
            for f in cf.as_completed(futs):
                n, rc, t, tail = f.result()
                times[n] = t
                print(f'{n:45s} {t:7.1f} s' + ('' if rc == 0 else f'  FAILED ({rc})\n{tail}'),
                      flush=True)
        with open(os.path.join(a.cov, 'times.json'), 'w') as fh:
            json.dump(times, fh)
    else:
        times = json.load(open(os.path.join(a.cov, 'times.json')))
    cover = {n: lines_of(build, os.path.join(a.cov, n)) for n in names}
    universe = set().union(*cover.values())
    chosen = [n for n in names if n.startswith('test_fault_')]
    left = universe - set().union(set(), *(cover[n] for n in chosen))
    while left:
        rest = [n for n in names if n not in chosen]
        best = max(rest, key=lambda n: len(cover[n] & left) / (1.0 + times.get(n, 1.0)))
        gain = len(cover[best] & left)
        if gain == 0 or gain / (1.0 + times.get(best, 1.0)) < a.min_rate:
            break
        chosen.append(best)
        left -= cover[best]
    skipped = sorted((n for n in names if n not in chosen), key=lambda n: -times.get(n, 0))
    total = sum(times.get(n, 0) for n in names)
    saved = sum(times.get(n, 0) for n in skipped)
    with open(a.out, 'w') as fh:
        fh.write(f"""# Tests the sanitizer pass (./build.sh test --sanitize) leaves out, made by
# tests/sanitize_select.py from a coverage build (VKMD_TEST_QUICK=1): the
# {len(chosen)} tests it keeps cover {len(universe) - len(left)} of the {len(universe)} host lines (engine/,
# tools/, viewer/) that all {len(names)} sanitizer-eligible tests cover; these {len(skipped)}
# add fewer than {a.min_rate} new lines per second of their time ({saved:.0f} of {total:.0f} s).
# Every one still runs, with every assertion, in the normal pass.
# Name, then the lines it alone would add to the kept set, and its seconds.
""")
        kept = set().union(set(), *(cover[n] for n in chosen))
        for n in skipped:
            fh.write(f'{n}  # +{len(cover[n] - kept)} lines, {times.get(n, 0):.0f} s\n')
        fh.write('# Host lines no kept test runs (file:line):\n')
        for f, ln in sorted(left):
            fh.write(f'#   {f}:{ln}\n')
    print(f'kept {len(chosen)}, left out {len(skipped)} ({saved:.0f} of {total:.0f} s); '
          f'{len(left)} of {len(universe)} lines not under the sanitizer')


if __name__ == '__main__':
    main()
