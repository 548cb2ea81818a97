"""Statistics of a constant-pressure run, shared by the NPT scripts in tools/.

No OpenMM here: tools/npt_compare.py applies the same functions to vkmd's
energy.csv and to OpenMM's CSV, so both engines' figures come from one code.

Units: volume A^3, density g/cm^3, temperature K, time ps, compressibility
1/bar. The Boltzmann constant and Avogadro's number are the SI values vkmd
(engine/core/units.h) and OpenMM use.
"""
import math

BOLTZMANN_J_PER_K = 1.380649e-23
AVOGADRO = 6.02214076e23
G_CM3_PER_AMU_A3 = 1.0 / (AVOGADRO * 1e-24)  # as VKMD_G_CM3_PER_AMU_A3
A3_TO_M3 = 1e-30
PA_PER_BAR = 1e5

# TIP3P's isothermal compressibility with Ewald/PME electrostatics,
# approximately 5.7e-5 /bar: Vega and Abascal, Phys. Chem. Chem. Phys. 13,
# 19663 (2011), compare rigid water models at 298 K and 1 bar (TIP3P about
# 57e-6 /bar, experiment about 45e-6 /bar; TIP3P's density about 0.98 g/cm^3).
TIP3P_KAPPA_T_PER_BAR = 5.74e-5
TIP3P_DENSITY_G_CM3 = 0.98


def mean(x):
    return sum(x) / len(x)


def variance(x):
    """Sample variance (n - 1 in the denominator)."""
    m = mean(x)
    return sum((v - m) ** 2 for v in x) / (len(x) - 1)


def block_standard_error(x, min_blocks=8):
    """Standard error of the mean of a correlated series by block averaging
    (Flyvbjerg and Petersen, J. Chem. Phys. 91, 461 (1989)): the series is cut
    into blocks of 1, 2, 4, ... samples (the first samples dropped so the
    blocks end with the series), and the standard error of the block means is
    computed at each size that leaves at least min_blocks blocks. The largest
    of these is returned (the plateau, or a lower bound when the blocks never
    grow past the correlation time), with the table [(block size, blocks,
    standard error)]."""
    n = len(x)
    table = []
    size = 1
    while n // size >= min_blocks:
        count = n // size
        start = n - count * size
        means = [mean(x[start + i * size:start + (i + 1) * size]) for i in range(count)]
        table.append((size, count, math.sqrt(variance(means) / count)))
        size *= 2
    if not table:
        raise ValueError('block_standard_error: %d samples, need at least %d' % (n, min_blocks))
    return max(se for _, _, se in table), table


def se_plateau(table, rel=0.15):
    """Whether the block standard errors stopped growing: the last two sizes
    agree within rel. When they do not, the run is shorter than a few
    correlation times and the standard error is a lower bound."""
    return len(table) >= 2 and table[-1][2] <= (1.0 + rel) * table[-2][2]


def compressibility_per_bar(volumes_a3, temperature_k):
    """Isothermal compressibility from the volume fluctuations at constant
    pressure: kappa_T = var(V) / (k_B T <V>), in 1/bar."""
    kt_j = BOLTZMANN_J_PER_K * temperature_k
    v = mean(volumes_a3)
    return variance(volumes_a3) * A3_TO_M3 / (kt_j * v) * PA_PER_BAR


def second_half(rows, key='time_ps'):
    """The rows whose time is at or after the middle of the series' span."""
    t0, t1 = rows[0][key], rows[-1][key]
    mid = 0.5 * (t0 + t1)
    return [r for r in rows if r[key] >= mid]


def summarise(rows, temperature_k, min_blocks=8):
    """Figures of the second half of a run: rows are dicts with time_ps,
    volume_A3 and density_g_cm3. Returns a dict (JSON-ready)."""
    if len(rows) < 2 * min_blocks:
        raise ValueError('summarise: %d samples, need at least %d' % (len(rows), 2 * min_blocks))
    half = second_half(rows)
    dens = [r['density_g_cm3'] for r in half]
    vols = [r['volume_A3'] for r in half]
    se, table = block_standard_error(dens, min_blocks)
    kappa = compressibility_per_bar(vols, temperature_k)
    return {
        'samples': len(half),
        'window_ps': [half[0]['time_ps'], half[-1]['time_ps']],
        'density_mean_g_cm3': mean(dens),
        'density_se_g_cm3': se,
        'density_se_blocks': [{'block': b, 'blocks': c, 'se': s} for b, c, s in table],
        'density_se_plateau': se_plateau(table),
        'volume_mean_A3': mean(vols),
        'volume_sd_A3': math.sqrt(variance(vols)),
        'kappa_T_per_bar': kappa,
        'kappa_T_tip3p_literature_per_bar': TIP3P_KAPPA_T_PER_BAR,
        'temperature_K': temperature_k,
    }
