#!/usr/bin/python3
"""Reference values for app/services/analytics/stats.ts, computed with numpy and scipy.

Run with Debian's python3 (apt-get install python3-scipy python3-numpy):
    /usr/bin/python3 scripts/reference/stats_reference.py
Writes tests/fixtures/stats/{descriptive,ranks,spearman,welch}.json. Every input is fixed or
drawn from a seeded generator, so the output is reproducible. NaN (undefined) is written as null.
"""
import json
import math
import os
import sys

import numpy as np
import scipy
from scipy import stats

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'fixtures', 'stats')
QUANTILE_PS = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]


def clean(value):
    """Floats as JSON numbers, NaN as null."""
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) else value


def rng_values():
    rng = np.random.RandomState(20260101)
    return {
        'n21_hrv': [round(v, 1) for v in rng.normal(50, 8, 21)],
        'n90_sleep_scores': [int(v) for v in rng.randint(55, 96, 90)],
        'n17_fractional_negative': [float(v) for v in rng.uniform(-3, 3, 17)],
        'n20_resting_hr': [int(v) for v in rng.randint(44, 62, 20)],
        'n7_load_ratio': [round(v, 2) for v in rng.uniform(0.6, 1.8, 7)],
        'n365_cardio_load': [round(v, 1) for v in rng.gamma(4.0, 25.0, 365)],
    }


def descriptive_cases():
    cases = {
        'single': [42.0],
        'two': [40.0, 60.0],
        'ascending_10': [float(v) for v in range(1, 11)],
        'ties': [5, 3, 3, 8, 8, 8, 1, 9, 3, 5],
        'constant_14': [50] * 14,
        'n6_insufficient': [48.1, 52.3, 47.9, 55.0, 51.2, 49.8],
    }
    cases.update(rng_values())
    out = []
    for name, values in cases.items():
        arr = np.asarray(values, dtype=float)
        q = {str(p): float(np.quantile(arr, p)) for p in QUANTILE_PS}
        q1 = float(np.quantile(arr, 0.25))
        q3 = float(np.quantile(arr, 0.75))
        iqr = q3 - q1
        out.append({
            'name': name,
            'values': [float(v) for v in values],
            'mean': float(np.mean(arr)),
            'median': float(np.median(arr)),
            'std_dev': clean(np.std(arr, ddof=1)) if len(arr) > 1 else None,
            'min': float(np.min(arr)),
            'max': float(np.max(arr)),
            'quantiles': q,
            'q1': q1,
            'q3': q3,
            'iqr': iqr,
            'fences_1_5': [q1 - 1.5 * iqr, q3 + 1.5 * iqr],
            'fences_3': [q1 - 3 * iqr, q3 + 3 * iqr],
        })
    return out


def ranks_cases():
    cases = {
        'no_ties': [3.2, 1.1, 5.0, 4.4, 2.0],
        'pair_tie': [10, 20, 20, 30],
        'triple_tie': [7, 7, 7, 1, 9],
        'all_equal': [4, 4, 4, 4],
        'mixed': [5, 3, 3, 8, 8, 8, 1, 9, 3, 5],
        'negative': [-1.5, 0.0, -1.5, 2.25, 0.0, -3.0],
    }
    return [
        {'name': name, 'values': [float(v) for v in values],
         'ranks': [float(r) for r in stats.rankdata(values, method='average')]}
        for name, values in cases.items()
    ]


def spearman_cases():
    rng = np.random.RandomState(7)
    # Worked example: sleep scores rank 1..10, HRV ranks [6,4,8,3,9,10,2,5,1,7] (sum d^2 = 194).
    sleep = [62, 65, 70, 71, 74, 78, 80, 83, 85, 88]
    hrv_by_rank = {r: 30.0 + 3.0 * r for r in range(1, 11)}
    hrv = [hrv_by_rank[r] for r in [6, 4, 8, 3, 9, 10, 2, 5, 1, 7]]
    base = rng.normal(0, 1, 90)
    n21_sleep = [int(v) for v in rng.randint(70, 80, 21)]  # integers with many ties
    n21_hrv = [round(50 + 0.8 * (s - 75) + float(e), 0) for s, e in zip(n21_sleep, rng.normal(0, 3, 21))]
    cases = {
        'worked_example_n10': (sleep, hrv),
        'n21_ties': (n21_sleep, n21_hrv),
        'n90_correlated': ([float(v) for v in base], [float(v) for v in 0.5 * base + rng.normal(0, 1, 90)]),
        'perfect_positive': ([1, 2, 3, 4, 5], [2, 4, 8, 16, 32]),
        'perfect_negative': ([1, 2, 3, 4, 5, 6], [9, 8, 7, 3, 2, 1]),
        'n3': ([1, 2, 3], [1, 3, 2]),
        'heavy_ties': ([1, 1, 1, 2, 2, 2, 3, 3, 3], [5, 5, 6, 6, 7, 7, 5, 6, 7]),
        'constant_x': ([5, 5, 5, 5, 5, 5, 5], [1, 2, 3, 4, 5, 6, 7]),
    }
    out = []
    for name, (x, y) in cases.items():
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            res = stats.spearmanr(x, y)
        out.append({'name': name, 'x': [float(v) for v in x], 'y': [float(v) for v in y],
                    'rho': clean(res.statistic), 'p_value': clean(res.pvalue)})
    return out


def welch_cases():
    rng = np.random.RandomState(11)
    cases = {
        'last7_vs_days8_30': ([float(v) for v in rng.normal(45, 5, 7)], [float(v) for v in rng.normal(50, 6, 23)]),
        'unequal_variance': ([float(v) for v in rng.normal(60, 1, 5)], [float(v) for v in rng.normal(58, 12, 15)]),
        'equal_means': ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]),
        'one_constant': ([70, 70, 70, 70], [60, 65, 70, 75, 80, 61, 63]),
        'three_vs_twelve': ([41.0, 39.5, 44.2], [50.1, 48.3, 52.0, 47.7, 49.9, 51.2, 46.8, 50.5, 49.0, 53.3, 48.8, 50.0]),
        'both_constant': ([3, 3, 3], [4, 4, 4, 4]),
    }
    out = []
    for name, (a, b) in cases.items():
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            res = stats.ttest_ind(a, b, equal_var=False)
        va = np.var(a, ddof=1) / len(a)
        vb = np.var(b, ddof=1) / len(b)
        df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1)) if (va + vb) > 0 else float('nan')
        t = clean(res.statistic)
        p = clean(res.pvalue)
        if t is None or p is None or math.isinf(t):
            t, p, df = None, None, float('nan')
        out.append({'name': name, 'a': [float(v) for v in a], 'b': [float(v) for v in b],
                    't': t, 'df': clean(df), 'p_value': p})
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    meta = {'generator': 'scripts/reference/stats_reference.py', 'numpy': np.__version__,
            'scipy': scipy.__version__, 'python': sys.version.split()[0]}
    for name, cases in [('descriptive', descriptive_cases()), ('ranks', ranks_cases()),
                        ('spearman', spearman_cases()), ('welch', welch_cases())]:
        with open(os.path.join(OUT, f'{name}.json'), 'w') as fh:
            json.dump({'meta': meta, 'cases': cases}, fh, indent=1)
            fh.write('\n')


if __name__ == '__main__':
    main()
