#!/usr/bin/python3
"""vkmd's constant-pressure run beside OpenMM's: density and compressibility.

Reads vkmd's energy.csv (lines starting with '#' are comments; the header
names the columns: volume_A3, density_g_cm3 and time_ps, or step with the
time step from --dt or the '# ... dt X fs' comment) and one or more runs of
tools/openmm_npt.py (its PREFIX.csv, or PREFIX.json whose 'csv' names the
CSV). Columns are found by name, case-insensitively; a missing one is an
error that names the file and the columns it has. Both engines' series go
through the same statistics (tools/npt_stats.py) over the second half of
each run: mean density and its block-averaged standard error, the volume's
standard deviation and kappa_T = var(V) / (k_B T <V>) in 1/bar. Prints them
side by side with the relative difference of the mean densities,
(vkmd - OpenMM) / OpenMM, and its standard error; with several OpenMM runs
(seeds) their densities are pooled (mean, and the spread between runs).

usage: /usr/bin/python3 tools/npt_compare.py --vkmd DIR/energy.csv --openmm PREFIX.json [...]
       [--temperature 300] [--dt FS] [--json FILE] [--max-rel-diff F]
       /usr/bin/python3 tools/npt_compare.py --self-test
Exit status 1 when --max-rel-diff is given and |relative difference| exceeds it.
"""
import argparse
import csv
import json
import math
import os
import random
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npt_stats  # noqa: E402


class ColumnError(Exception):
    pass


def read_series(path, dt_fs=None):
    """Rows {time_ps, volume_A3, density_g_cm3[, temperature_K]} of a CSV with
    '#' comments, columns found by header name."""
    comments, lines = [], []
    with open(path, newline='') as f:
        for line in f:
            (comments if line.startswith('#') else lines).append(line)
    if not lines:
        raise ColumnError('%s: no header line (only comments or empty)' % path)
    reader = csv.reader(lines)
    header = [h.strip() for h in next(reader)]
    index = {h.lower(): i for i, h in enumerate(header)}

    def column(*names):
        for n in names:
            if n.lower() in index:
                return index[n.lower()]
        return None

    vol, dens = column('volume_A3'), column('density_g_cm3')
    time_col, step_col = column('time_ps'), column('step')
    temp_col = column('temperature_K')
    missing = [n for n, c in (('volume_A3', vol), ('density_g_cm3', dens)) if c is None]
    if time_col is None and step_col is None:
        missing.append('time_ps (or step)')
    if missing:
        raise ColumnError('%s: missing column%s %s; the header has: %s'
                          % (path, 's' if len(missing) > 1 else '', ', '.join(missing),
                             ', '.join(header)))
    if time_col is None:
        if dt_fs is None:
            for c in comments:
                m = re.search(r'\bdt ([0-9.eE+-]+) fs', c)
                if m:
                    dt_fs = float(m.group(1))
        if dt_fs is None:
            raise ColumnError('%s: no time_ps column and no time step (give --dt)' % path)
    rows = []
    for lineno, rec in enumerate(reader, start=len(comments) + 2):
        if not rec or not ''.join(rec).strip():
            continue
        try:
            t = (float(rec[time_col]) if time_col is not None
                 else float(rec[step_col]) * dt_fs / 1000.0)
            r = {'time_ps': t, 'volume_A3': float(rec[vol]),
                 'density_g_cm3': float(rec[dens])}
            if temp_col is not None:
                r['temperature_K'] = float(rec[temp_col])
        except (ValueError, IndexError):
            raise ColumnError('%s:%d: expected numbers in %s' % (path, lineno, ','.join(header)))
        rows.append(r)
    if len(rows) < 16:
        raise ColumnError('%s: %d rows, need at least 16 for block averages' % (path, len(rows)))
    return rows


def openmm_csv(path):
    if path.endswith('.json'):
        with open(path) as f:
            j = json.load(f)
        csv_path = j.get('csv') or path[:-len('.json')] + '.csv'
        if not os.path.exists(csv_path):
            csv_path = path[:-len('.json')] + '.csv'
        return csv_path
    return path


def stats(rows, temperature_k):
    s = npt_stats.summarise(rows, temperature_k)
    temps = [r['temperature_K'] for r in npt_stats.second_half(rows) if 'temperature_K' in r]
    s['temperature_mean_K'] = npt_stats.mean(temps) if temps else None
    s.pop('density_se_blocks')
    return s


def compare(vkmd_path, openmm_paths, temperature_k, dt_fs=None):
    v = stats(read_series(vkmd_path, dt_fs), temperature_k)
    runs = [stats(read_series(openmm_csv(p)), temperature_k) for p in openmm_paths]
    dens = [r['density_mean_g_cm3'] for r in runs]
    o_mean = npt_stats.mean(dens)
    if len(runs) > 1:  # independent runs: the spread between them
        o_se = math.sqrt(npt_stats.variance(dens) / len(runs))
    else:
        o_se = runs[0]['density_se_g_cm3']
    rel = (v['density_mean_g_cm3'] - o_mean) / o_mean
    rel_se = math.hypot(v['density_se_g_cm3'], o_se) / o_mean
    kappas = [r['kappa_T_per_bar'] for r in runs]
    return {'vkmd': v, 'openmm_runs': runs, 'openmm_density_mean_g_cm3': o_mean,
            'openmm_density_se_g_cm3': o_se, 'openmm_kappa_T_mean_per_bar': npt_stats.mean(kappas),
            'density_rel_diff': rel, 'density_rel_diff_se': rel_se,
            'kappa_T_tip3p_literature_per_bar': npt_stats.TIP3P_KAPPA_T_PER_BAR}


def print_report(c, vkmd_path, openmm_paths):
    def line(name, s):
        t = s['temperature_mean_K']
        print('%-22s %6d %8.4f %7.4f%s %10.1f %9.1f %10.3g %7s' % (
            name, s['samples'], s['density_mean_g_cm3'], s['density_se_g_cm3'],
            ' ' if s['density_se_plateau'] else '*',
            s['volume_mean_A3'], s['volume_sd_A3'], s['kappa_T_per_bar'],
            '%.1f' % t if t is not None else '-'))
    print('second half of each run; density g/cm^3, volume A^3, kappa_T 1/bar, T K')
    print('%-22s %6s %8s %8s %10s %9s %10s %7s' % ('run', 'rows', 'density', 'se', '<V>',
                                                 'sd(V)', 'kappa_T', '<T>'))
    line('vkmd', c['vkmd'])
    for p, s in zip(openmm_paths, c['openmm_runs']):
        line('openmm ' + os.path.basename(p)[:15], s)
    if len(c['openmm_runs']) > 1:
        print('openmm pooled: density %.4f +- %.4f (spread of %d runs), kappa_T %.3g'
              % (c['openmm_density_mean_g_cm3'], c['openmm_density_se_g_cm3'],
                 len(c['openmm_runs']), c['openmm_kappa_T_mean_per_bar']))
    if not all(s['density_se_plateau'] for s in [c['vkmd']] + c['openmm_runs']):
        print('* block standard error still growing at the largest block: a lower bound')
    print('density (vkmd - openmm) / openmm: %+.4f +- %.4f (%+.2f %%)'
          % (c['density_rel_diff'], c['density_rel_diff_se'], 100 * c['density_rel_diff']))
    print('kappa_T vkmd %.3g, openmm %.3g, TIP3P literature ~%.3g /bar'
          % (c['vkmd']['kappa_T_per_bar'], c['openmm_kappa_T_mean_per_bar'],
             c['kappa_T_tip3p_literature_per_bar']))


def synthetic(path, n, rho, sd_rel, mass, style, seed, tau=5.0):
    """An AR(1) density series (correlation time tau samples) in vkmd's or
    OpenMM's CSV layout; returns the exact volumes written."""
    rnd = random.Random(seed)
    phi = math.exp(-1.0 / tau)
    x, vols = 0.0, []
    with open(path, 'w') as f:
        if style == 'vkmd':
            f.write('# vkmd run energies: synthetic\n# integrator langevin-middle, dt 2 fs, '
                    'T 300 K\n')
            f.write('step,potential_kcal_mol,temperature_K,volume_A3,density_g_cm3\n')
        else:
            f.write('time_ps,step,volume_A3,density_g_cm3,temperature_K\n')
        for i in range(n):
            x = phi * x + math.sqrt(1 - phi * phi) * rnd.gauss(0.0, 1.0)
            d = rho * (1.0 + sd_rel * x)
            v = mass / d * npt_stats.G_CM3_PER_AMU_A3
            vols.append(v)
            if style == 'vkmd':
                f.write('%d,-9000.0,300.0,%.6f,%.8f\n' % (50 * i, v, d))
            else:
                f.write('%.6f,%d,%.6f,%.8f,300.0\n' % (0.1 * i, 50 * i, v, d))
    return vols


def self_test():
    """Synthetic series with known statistics through the whole path."""
    failures = []

    def check(what, ok):
        print('%-60s %s' % (what, 'ok' if ok else 'FAIL'))
        if not ok:
            failures.append(what)

    mass = 1000 * 18.01528
    with tempfile.TemporaryDirectory() as d:
        vk, om = os.path.join(d, 'energy.csv'), os.path.join(d, 'openmm.csv')
        vols = synthetic(vk, 20000, 0.99, 0.01, mass, 'vkmd', 1)
        synthetic(om, 20000, 0.98, 0.01, mass, 'openmm', 2)
        c = compare(vk, [om], 300.0)
        v = c['vkmd']
        check('dt from the comment: the second half starts at step 500000, 1000 ps',
              abs(v['window_ps'][0] - 1000.0) < 1e-9)
        check('vkmd mean density 0.99 within 4 se', abs(v['density_mean_g_cm3'] - 0.99)
              < 4 * v['density_se_g_cm3'])
        # AR(1) with tau = 5: the se of the mean is sqrt((1+phi)/(1-phi)) ~ 3.2
        # times the naive one; blocking must find most of it.
        naive = 0.0099 / math.sqrt(v['samples'])
        check('block se finds the correlation (2.5x to 3.6x the naive se)',
              2.5 * naive < v['density_se_g_cm3'] < 3.6 * naive)
        half = vols[len(vols) // 2:]
        kappa = npt_stats.variance(half) * 1e-30 / (1.380649e-23 * 300.0 * npt_stats.mean(half)) \
            * 1e5
        check('kappa_T = var(V)/(kB T <V>) in 1/bar', abs(v['kappa_T_per_bar'] - kappa)
              < 1e-6 * kappa)  # volumes written to 1e-6 A^3
        check('relative density difference ~ +1.02 %', abs(c['density_rel_diff'] - 0.01 / 0.98)
              < 4 * c['density_rel_diff_se'])
        bad = os.path.join(d, 'bad.csv')
        with open(bad, 'w') as f:
            f.write('# vkmd run energies\nstep,time_ps,potential_kcal_mol,temperature_K\n0,0,1,300\n')
        try:
            read_series(bad)
            check('missing columns are an error', False)
        except ColumnError as e:
            check('missing columns named: %s' % str(e).split(': ', 1)[1][:40],
                  'volume_A3, density_g_cm3' in str(e) and 'temperature_K' in str(e))
    print('self-test: %s' % ('passed' if not failures else '%d failed' % len(failures)))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--vkmd', help="vkmd run's energy.csv")
    ap.add_argument('--openmm', action='append', default=[],
                    help='tools/openmm_npt.py PREFIX.json or PREFIX.csv (repeat for seeds)')
    ap.add_argument('--temperature', type=float, default=300.0, help='K, for kappa_T (default 300)')
    ap.add_argument('--dt', type=float, help='fs, when the vkmd CSV has step but no time_ps')
    ap.add_argument('--json', help='also write the comparison here')
    ap.add_argument('--max-rel-diff', type=float,
                    help='exit 1 if |density relative difference| exceeds this')
    ap.add_argument('--self-test', action='store_true', help='check on synthetic series')
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.vkmd or not a.openmm:
        ap.error('give --vkmd and at least one --openmm (or --self-test)')
    try:
        c = compare(a.vkmd, a.openmm, a.temperature, a.dt)
    except (ColumnError, OSError, ValueError) as e:
        print('npt_compare: %s' % e, file=sys.stderr)
        return 2
    print_report(c, a.vkmd, a.openmm)
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(c, f, indent=1)
            f.write('\n')
    if a.max_rel_diff is not None and abs(c['density_rel_diff']) > a.max_rel_diff:
        print('npt_compare: |density difference| %.4f > %.4f' % (abs(c['density_rel_diff']),
                                                                  a.max_rel_diff), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
