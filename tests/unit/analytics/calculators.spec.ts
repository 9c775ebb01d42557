import { test } from '@japa/runner'
import { computeBaseline } from '#services/analytics/baseline_calculator'
import { checkValue, scanAnomalies } from '#services/analytics/anomaly_calculator'
import { metricTrend, overtrainingRisk, sleepHrvCorrelation, trendDirection } from '#services/analytics/pattern_calculator'
import { featureAvailability, nextUnlock, unlockProgress } from '#services/analytics/feature_unlocks'
import { emptySeries, shiftDate, type DatedValue } from '#services/analytics/metrics'

const TODAY = '2026-03-31'

/** `n` consecutive daily values ending `endOffset` days before TODAY, oldest first. */
function daily(n: number, value: (i: number) => number, endOffset = 0): DatedValue[] {
  return Array.from({ length: n }, (_, i) => ({
    date: shiftDate(TODAY, -(endOffset + n - 1 - i)),
    value: value(i),
  }))
}

test.group('Analytics calculators | baselines', () => {
  test('{0} values give status {1}')
    .with([
      [1, 'insufficient'],
      [6, 'insufficient'],
      [7, 'partial'],
      [20, 'partial'],
      [21, 'ready'],
      [90, 'ready'],
    ] as const)
    .run(({ assert }, [n, status]) => {
      const b = computeBaseline('hrv_rmssd', daily(n, (i) => 40 + (i % 9)), TODAY)!
      assert.equal(b.status, status)
      assert.equal(b.sampleCount, n)
      if (status === 'insufficient') {
        assert.isNull(b.q1)
        assert.isNull(b.iqr)
        assert.isNull(b.stdDev)
        assert.isNull(b.lowerBound)
      } else {
        assert.isNotNull(b.lowerBound)
        assert.closeTo(b.lowerBound!, b.q1! - 1.5 * b.iqr!, 1e-12)
      }
    })

  test('the window is the 90 calendar days ending today', ({ assert }) => {
    const series = [...daily(10, () => 100, 90), ...daily(5, () => 50)]
    const b = computeBaseline('sleep_score', series, TODAY)!
    assert.equal(b.sampleCount, 5)
    assert.equal(b.baselineValue, 50)
    assert.equal(b.dataStartDate, shiftDate(TODAY, -4))
    assert.isNull(computeBaseline('sleep_score', daily(3, () => 1, 90), TODAY))
  })

  test('rolling means need 3/15/45 values in their calendar window', ({ assert }) => {
    const b = computeBaseline('resting_hr', daily(44, (i) => 50 + (i % 3)), TODAY)!
    assert.isNotNull(b.baseline7d)
    assert.isNotNull(b.baseline30d)
    assert.isNull(b.baseline90d)
    const sparse = computeBaseline('resting_hr', [...daily(20, () => 50, 10), ...daily(2, () => 60)], TODAY)!
    assert.isNull(sparse.baseline7d)
    assert.isNotNull(computeBaseline('resting_hr', daily(45, () => 50), TODAY)!.baseline90d)
  })
})

test.group('Analytics calculators | anomalies', () => {
  test('fences are strict and insufficient baselines never flag', ({ assert }) => {
    const base = {
      metricName: 'hrv_rmssd' as const,
      baselineValue: 45,
      baseline7d: 45,
      q1: 40,
      q3: 50,
      lowerBound: 25,
      upperBound: 65,
      status: 'ready' as const,
    }
    assert.deepEqual(checkValue(25, base), { isAnomaly: false, severity: null })
    assert.deepEqual(checkValue(24.9, base), { isAnomaly: true, severity: 'warning' })
    assert.deepEqual(checkValue(10, base), { isAnomaly: true, severity: 'warning' })
    assert.deepEqual(checkValue(9.9, base), { isAnomaly: true, severity: 'critical' })
    assert.deepEqual(checkValue(1000, { ...base, status: 'insufficient' }), { isAnomaly: false, severity: null })
  })

  test('bulk scan ignores values older than 7 days', ({ assert }) => {
    const series = emptySeries()
    series.hrv_rmssd = [...daily(30, (i) => 40 + (i % 11), 8), { date: shiftDate(TODAY, -7), value: 5 }]
    const b = computeBaseline('hrv_rmssd', series.hrv_rmssd, TODAY)!
    assert.lengthOf(scanAnomalies([b], series, TODAY), 0)
    series.hrv_rmssd.push({ date: shiftDate(TODAY, -6), value: 5 })
    const found = scanAnomalies([b], series, TODAY)
    assert.lengthOf(found, 1)
    assert.equal(found[0].direction, 'below')
  })
})

test.group('Analytics calculators | patterns', () => {
  test('trend direction is stable below 5% and inverted when lower is better', ({ assert }) => {
    assert.equal(trendDirection(4.99), 'stable')
    assert.equal(trendDirection(-5), 'declining')
    assert.equal(trendDirection(5), 'improving')
    assert.equal(trendDirection(6, false), 'declining')
  })

  test('trend needs 3 values in 7 days and 15 in 30', ({ assert }) => {
    const series = emptySeries()
    series.hrv_rmssd = [...daily(13, (i) => 50 + (i % 4), 7), ...daily(2, () => 40)]
    assert.equal(metricTrend('hrv_trend', series, TODAY).significance, 'insufficient')
    series.hrv_rmssd.push({ date: shiftDate(TODAY, -2), value: 41 })
    series.hrv_rmssd.sort((a, b) => a.date.localeCompare(b.date))
    const trend = metricTrend('hrv_trend', series, TODAY)
    assert.notEqual(trend.significance, 'insufficient')
    assert.equal(trend.details.direction, 'declining')
    assert.isNumber(trend.details.p_value)
  })

  test('correlation needs 21 same-night pairs', ({ assert }) => {
    const series = emptySeries()
    series.sleep_score = daily(20, (i) => 60 + i)
    series.hrv_rmssd = daily(20, (i) => 30 + ((i * 7) % 20))
    assert.equal(sleepHrvCorrelation(series, TODAY).significance, 'insufficient')
    series.sleep_score = daily(21, (i) => 60 + i)
    series.hrv_rmssd = daily(21, (i) => 30 + ((i * 7) % 21))
    const p = sleepHrvCorrelation(series, TODAY)
    assert.notEqual(p.significance, 'insufficient')
    assert.equal(p.sampleCount, 21)
  })

  test('overtraining risk counts factors and points', ({ assert }) => {
    const series = emptySeries()
    series.training_load_ratio = daily(1, () => 1.6)
    assert.equal(overtrainingRisk(series, TODAY).significance, 'insufficient')
    series.hrv_rmssd = [...daily(23, () => 50, 7).map((p, i) => ({ ...p, value: 50 + (i % 3) })), ...daily(7, () => 40)]
    const risk = overtrainingRisk(series, TODAY)
    assert.equal(risk.details.factors_checked, 2)
    assert.equal(risk.score, 50)
    assert.equal(risk.significance, 'high')
    assert.equal(risk.confidence, 0.5)
  })
})

test.group('Analytics calculators | unlocks', () => {
  test('insights unlock messages and progress', ({ assert }) => {
    const fa = featureAvailability(5)
    assert.deepEqual(fa.baselines_7d, { available: false, message: 'Unlocks in 2 days', unlockAtDays: 7 })
    assert.deepEqual(nextUnlock(5), { nextUnlock: 'baselines_7d', daysUntilNext: 2, percentToNext: 71.4 })
    assert.deepEqual(nextUnlock(60), { nextUnlock: null, daysUntilNext: 0, percentToNext: 100 })
    assert.deepEqual(unlockProgress(10, 14), { unlocked: false, daysRequired: 14, daysRemaining: 4, progressPercent: 71.4 })
  })
})
