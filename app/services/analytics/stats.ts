import tCdf from '@stdlib/stats-base-dists-t-cdf'
import {
  mean as ssMean,
  quantileSorted as ssQuantileSorted,
  sampleStandardDeviation,
} from 'simple-statistics'

/**
 * Pure statistics for the analytics engine (DESIGN §4 "Analytics definitions").
 * No I/O, no clock, no database: every function takes plain numbers and is compared in
 * tests/unit/analytics/stats.spec.ts with reference values computed by numpy/scipy.
 * Functions that need at least one value throw a RangeError on an empty input; functions whose
 * result is mathematically undefined for the data (constant series, too few points) return null.
 */

/** Both ends of an IQR fence pair. */
export interface Fences {
  lower: number
  upper: number
}

/** Result of a Spearman rank correlation. */
export interface SpearmanResult {
  rho: number
  pValue: number
  n: number
}

/** Result of Welch's unequal-variance two-sample t-test. */
export interface WelchResult {
  t: number
  df: number
  pValue: number
}

/** Summary of one sample used by baselines. */
export interface Summary {
  n: number
  mean: number
  median: number
  q1: number
  q3: number
  iqr: number
  stdDev: number | null
  min: number
  max: number
}

function assertNonEmpty(values: readonly number[], what: string) {
  if (values.length === 0) {
    throw new RangeError(`${what} needs at least one value`)
  }
}

/** Arithmetic mean (simple-statistics, compensated summation). */
export function mean(values: readonly number[]): number {
  assertNonEmpty(values, 'mean')
  return ssMean(values as number[])
}

/** Values sorted ascending into a new array. */
export function sortAscending(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b)
}

/**
 * Hyndman–Fan type 7 quantile (numpy's default `linear`, PostgreSQL `percentile_cont`) of an
 * already sorted sample: position h = (n − 1)·p, linear interpolation between the neighbours.
 * simple-statistics 7.12 `quantileSorted` implements exactly this (older releases did not; the
 * unit tests pin it against numpy).
 */
export function quantileSorted(sorted: readonly number[], p: number): number {
  assertNonEmpty(sorted, 'quantile')
  if (!(p >= 0 && p <= 1)) {
    throw new RangeError('quantile probability must lie in [0, 1]')
  }
  return ssQuantileSorted(sorted as number[], p)
}

/** Type 7 quantile of an unsorted sample. */
export function quantile(values: readonly number[], p: number): number {
  return quantileSorted(sortAscending(values), p)
}

/** Median (type 7 at p = 0.5: the middle value, or the mean of the two middle values). */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5)
}

/** Sample standard deviation (n − 1 denominator); null when fewer than two values. */
export function sampleStdDev(values: readonly number[]): number | null {
  if (values.length < 2) return null
  return sampleStandardDeviation(values as number[])
}

/** Tukey fences q1 − k·iqr and q3 + k·iqr. */
export function iqrFences(q1: number, q3: number, k: number): Fences {
  const iqr = q3 - q1
  return { lower: q1 - k * iqr, upper: q3 + k * iqr }
}

/**
 * IQR severity of a value (DESIGN §4): `critical` outside the 3·IQR fences, `warning` outside
 * the 1.5·IQR fences, otherwise null. Strict inequalities: a value on a fence is not an anomaly.
 */
export function iqrSeverity(value: number, q1: number, q3: number): 'warning' | 'critical' | null {
  const outer = iqrFences(q1, q3, 3)
  if (value < outer.lower || value > outer.upper) return 'critical'
  const inner = iqrFences(q1, q3, 1.5)
  if (value < inner.lower || value > inner.upper) return 'warning'
  return null
}

/** Descriptive summary of a non-empty sample (type 7 quartiles, sample SD). */
export function summarize(values: readonly number[]): Summary {
  assertNonEmpty(values, 'summarize')
  const sorted = sortAscending(values)
  const q1 = quantileSorted(sorted, 0.25)
  const q3 = quantileSorted(sorted, 0.75)
  return {
    n: sorted.length,
    mean: mean(sorted),
    median: quantileSorted(sorted, 0.5),
    q1,
    q3,
    iqr: q3 - q1,
    stdDev: sampleStdDev(sorted),
    min: sorted[0],
    max: sorted[sorted.length - 1],
  }
}

/** 1-based ranks; tied values share the average of the ranks they span (scipy `rankdata`). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b])
  const ranks = new Array<number>(values.length)
  let i = 0
  while (i < order.length) {
    let j = i
    while (j + 1 < order.length && values[order[j + 1]] === values[order[i]]) j++
    const rank = (i + j + 2) / 2
    for (let k = i; k <= j; k++) ranks[order[k]] = rank
    i = j + 1
  }
  return ranks
}

/** Pearson correlation; null when either series is constant or the lengths differ or n < 2. */
export function pearson(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length || x.length < 2) return null
  const mx = mean(x)
  const my = mean(y)
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < x.length; i++) {
    const dx = x[i] - mx
    const dy = y[i] - my
    sxy += dx * dy
    sxx += dx * dx
    syy += dy * dy
  }
  if (sxx === 0 || syy === 0) return null
  const r = sxy / Math.sqrt(sxx * syy)
  return Math.max(-1, Math.min(1, r))
}

/** Two-sided p-value of a Student t statistic with `df` degrees of freedom. */
export function twoSidedTPValue(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN
  if (!Number.isFinite(t)) return 0
  return Math.min(1, 2 * tCdf(-Math.abs(t), df))
}

/**
 * Spearman rank correlation with average ranks for ties and a two-sided p-value from
 * Student's t with n − 2 degrees of freedom (as scipy.stats.spearmanr). Null when n < 3 or
 * either series is constant (the coefficient is undefined).
 */
export function spearman(x: readonly number[], y: readonly number[]): SpearmanResult | null {
  if (x.length !== y.length) throw new RangeError('spearman needs paired series of equal length')
  const n = x.length
  if (n < 3) return null
  const rho = pearson(averageRanks(x), averageRanks(y))
  if (rho === null) return null
  const df = n - 2
  const denominator = (1 + rho) * (1 - rho)
  const t = denominator <= 0 ? Math.sign(rho) * Infinity : rho * Math.sqrt(df / denominator)
  return { rho, pValue: twoSidedTPValue(t, df), n }
}

/** Sample variance (n − 1). */
function sampleVariance(values: readonly number[]): number {
  const sd = sampleStdDev(values)
  return sd === null ? Number.NaN : sd * sd
}

/**
 * Welch's unequal-variance t-test of sample `a` against sample `b` (scipy
 * `ttest_ind(a, b, equal_var=False)`), with Welch–Satterthwaite degrees of freedom.
 * Null when either sample has fewer than two values or both are constant.
 */
export function welchTTest(a: readonly number[], b: readonly number[]): WelchResult | null {
  if (a.length < 2 || b.length < 2) return null
  const va = sampleVariance(a) / a.length
  const vb = sampleVariance(b) / b.length
  const se2 = va + vb
  if (!(se2 > 0)) return null
  const t = (mean(a) - mean(b)) / Math.sqrt(se2)
  const df = (se2 * se2) / ((va * va) / (a.length - 1) + (vb * vb) / (b.length - 1))
  return { t, df, pValue: twoSidedTPValue(t, df) }
}

/**
 * Significance label of a p-value (DESIGN §4): high p < 0.01, medium p < 0.05, low otherwise.
 */
export function significanceFromP(pValue: number): 'high' | 'medium' | 'low' {
  if (pValue < 0.01) return 'high'
  if (pValue < 0.05) return 'medium'
  return 'low'
}

/** Value rounded to `digits` decimals (half away from zero), keeping null as null. */
export function round(value: number, digits: number): number
export function round(value: number | null, digits: number): number | null
export function round(value: number | null, digits: number): number | null {
  if (value === null) return null
  const f = 10 ** digits
  return (Math.sign(value) * Math.round(Math.abs(value) * f)) / f
}
