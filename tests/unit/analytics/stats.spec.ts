import { readFileSync } from 'node:fs'
import { test } from '@japa/runner'
import {
  averageRanks,
  iqrFences,
  iqrSeverity,
  mean,
  median,
  quantile,
  sampleStdDev,
  significanceFromP,
  spearman,
  summarize,
  welchTTest,
} from '#services/analytics/stats'

/** Reference values written by scripts/reference/stats_reference.py (numpy/scipy). */
function fixture<T>(name: string): T[] {
  const url = new URL(`../../fixtures/stats/${name}.json`, import.meta.url)
  return JSON.parse(readFileSync(url, 'utf8')).cases as T[]
}

interface DescriptiveCase {
  name: string
  values: number[]
  mean: number
  median: number
  std_dev: number | null
  min: number
  max: number
  quantiles: Record<string, number>
  q1: number
  q3: number
  iqr: number
  fences_1_5: [number, number]
  fences_3: [number, number]
}
interface RanksCase {
  name: string
  values: number[]
  ranks: number[]
}
interface SpearmanCase {
  name: string
  x: number[]
  y: number[]
  rho: number | null
  p_value: number | null
}
interface WelchCase {
  name: string
  a: number[]
  b: number[]
  t: number | null
  df: number | null
  p_value: number | null
}

const VALUE_TOLERANCE = 1e-9
const P_TOLERANCE = 1e-6

const descriptive = fixture<DescriptiveCase>('descriptive')
const ranks = fixture<RanksCase>('ranks')
const spearmanCases = fixture<SpearmanCase>('spearman')
const welchCases = fixture<WelchCase>('welch')

test.group('Analytics stats | descriptive statistics vs numpy', () => {
  test('mean, median and sample SD of {name}')
    .with(descriptive)
    .run(({ assert }, c) => {
      assert.closeTo(mean(c.values), c.mean, VALUE_TOLERANCE)
      assert.closeTo(median(c.values), c.median, VALUE_TOLERANCE)
      const sd = sampleStdDev(c.values)
      if (c.std_dev === null) {
        assert.isNull(sd)
      } else {
        assert.closeTo(sd!, c.std_dev, VALUE_TOLERANCE)
      }
    })

  test('type 7 quantiles and IQR fences of {name}')
    .with(descriptive)
    .run(({ assert }, c) => {
      for (const [p, expected] of Object.entries(c.quantiles)) {
        assert.closeTo(quantile(c.values, Number(p)), expected, VALUE_TOLERANCE, `p=${p}`)
      }
      const s = summarize(c.values)
      assert.closeTo(s.q1, c.q1, VALUE_TOLERANCE)
      assert.closeTo(s.q3, c.q3, VALUE_TOLERANCE)
      assert.closeTo(s.iqr, c.iqr, VALUE_TOLERANCE)
      assert.equal(s.min, c.min)
      assert.equal(s.max, c.max)
      assert.equal(s.n, c.values.length)
      const inner = iqrFences(s.q1, s.q3, 1.5)
      const outer = iqrFences(s.q1, s.q3, 3)
      assert.closeTo(inner.lower, c.fences_1_5[0], VALUE_TOLERANCE)
      assert.closeTo(inner.upper, c.fences_1_5[1], VALUE_TOLERANCE)
      assert.closeTo(outer.lower, c.fences_3[0], VALUE_TOLERANCE)
      assert.closeTo(outer.upper, c.fences_3[1], VALUE_TOLERANCE)
    })

  test('a constant series has zero spread', ({ assert }) => {
    const s = summarize(new Array(14).fill(50))
    assert.equal(s.iqr, 0)
    assert.equal(s.stdDev, 0)
    assert.equal(s.q1, 50)
    assert.equal(s.q3, 50)
  })

  test('empty input is rejected', ({ assert }) => {
    assert.throws(() => mean([]), /at least one value/)
    assert.throws(() => quantile([], 0.5), /at least one value/)
    assert.throws(() => quantile([1, 2], 1.5), /\[0, 1\]/)
  })
})

test.group('Analytics stats | ranks and Spearman vs scipy', () => {
  test('average ranks of {name}')
    .with(ranks)
    .run(({ assert }, c) => {
      assert.deepEqual(averageRanks(c.values), c.ranks)
    })

  test('spearman rho and two-sided p of {name}')
    .with(spearmanCases)
    .run(({ assert }, c) => {
      const result = spearman(c.x, c.y)
      if (c.rho === null) {
        assert.isNull(result)
        return
      }
      assert.isNotNull(result)
      assert.closeTo(result!.rho, c.rho, VALUE_TOLERANCE)
      assert.closeTo(result!.pValue, c.p_value!, P_TOLERANCE)
      assert.equal(result!.n, c.x.length)
    })

  test('worked example: rho = -0.1758, n = 10, p = 0.627', ({ assert }) => {
    const sleep = [62, 65, 70, 71, 74, 78, 80, 83, 85, 88]
    const hrv = [48, 42, 54, 39, 57, 60, 36, 45, 33, 51]
    const result = spearman(sleep, hrv)!
    assert.equal(result.n, 10)
    assert.closeTo(result.rho, -0.17575757575757575, 1e-12)
    assert.closeTo(result.pValue, 0.6271883447764844, P_TOLERANCE)
    assert.equal(significanceFromP(result.pValue), 'low')
  })

  test('fewer than three pairs or a constant series give no correlation', ({ assert }) => {
    assert.isNull(spearman([1, 2], [2, 1]))
    assert.isNull(spearman([3, 3, 3, 3], [1, 2, 3, 4]))
    assert.throws(() => spearman([1, 2, 3], [1, 2]))
  })
})

test.group('Analytics stats | Welch t-test vs scipy', () => {
  test('welch t, df and p of {name}')
    .with(welchCases)
    .run(({ assert }, c) => {
      const result = welchTTest(c.a, c.b)
      if (c.t === null) {
        assert.isNull(result)
        return
      }
      assert.isNotNull(result)
      assert.closeTo(result!.t, c.t, VALUE_TOLERANCE)
      assert.closeTo(result!.df, c.df!, VALUE_TOLERANCE)
      assert.closeTo(result!.pValue, c.p_value!, P_TOLERANCE)
    })

  test('samples smaller than two give no test', ({ assert }) => {
    assert.isNull(welchTTest([1], [1, 2, 3]))
  })
})

test.group('Analytics stats | classifications', () => {
  test('iqr severity uses strict inequalities at the fences', ({ assert }) => {
    // q1 = 40, q3 = 50, iqr = 10: warning fences 25/65, critical fences 10/80.
    assert.isNull(iqrSeverity(25, 40, 50))
    assert.isNull(iqrSeverity(65, 40, 50))
    assert.equal(iqrSeverity(24.999, 40, 50), 'warning')
    assert.equal(iqrSeverity(65.001, 40, 50), 'warning')
    assert.equal(iqrSeverity(10, 40, 50), 'warning')
    assert.equal(iqrSeverity(80, 40, 50), 'warning')
    assert.equal(iqrSeverity(9.999, 40, 50), 'critical')
    assert.equal(iqrSeverity(80.001, 40, 50), 'critical')
  })

  test('significance from p: {0} -> {1}')
    .with([
      [0.0099, 'high'],
      [0.01, 'medium'],
      [0.0499, 'medium'],
      [0.05, 'low'],
      [0.5, 'low'],
    ] as const)
    .run(({ assert }, [p, label]) => {
      assert.equal(significanceFromP(p), label)
    })
})
