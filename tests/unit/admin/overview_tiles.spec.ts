import { test } from '@japa/runner'
import { bandStatus, buildTiles, sleepDuration, type TileInputs } from '#services/admin/overview_tiles'
import type { BaselineLike } from '#services/analytics/anomaly_calculator'
import type { MetricName } from '#services/analytics/metrics'

const baseline = (metricName: MetricName, q1: number, q3: number, status: BaselineLike['status'] = 'ready') => ({
  metricName,
  baselineValue: (q1 + q3) / 2,
  q1: status === 'insufficient' ? null : q1,
  q3: status === 'insufficient' ? null : q3,
  lowerBound: q1 - 1.5 * (q3 - q1),
  upperBound: q3 + 1.5 * (q3 - q1),
  status,
  sampleCount: status === 'insufficient' ? 4 : 60,
})

function inputs(overrides: Partial<TileInputs> = {}): TileInputs {
  return {
    latest: {
      sleep_score: { date: '2026-03-15', value: 82 },
      hrv_rmssd: { date: '2026-03-15', value: 38.4 },
      resting_hr: { date: '2026-03-14', value: 55 },
      training_load_ratio: { date: '2026-03-15', value: 1.234 },
    },
    baselines: new Map([
      ['sleep_score', baseline('sleep_score', 78, 86)],
      ['hrv_rmssd', baseline('hrv_rmssd', 45, 55)],
      ['resting_hr', baseline('resting_hr', 50, 54)],
      ['training_load_ratio', baseline('training_load_ratio', 0.8, 1.2, 'insufficient')],
    ]),
    insightBaselines: {
      sleep_score: { current: 82, baseline: 82, percentOfBaseline: 100, trend: 'stable', status: 'ready', baseline7d: 83, baseline30d: 82 },
      hrv_rmssd: { current: 38, baseline: 50, percentOfBaseline: 76, trend: 'declining', status: 'ready', baseline7d: 42, baseline30d: 50 },
      resting_hr: { current: 55, baseline: 52, percentOfBaseline: 105, trend: 'declining', status: 'ready', baseline7d: 56, baseline30d: 52 },
    },
    sleepSeconds: 7 * 3600 + 5 * 60 + 20,
    cardioStatus: 'MAINTAINING',
    ...overrides,
  }
}

test.group('Overview tiles', () => {
  test('each tile sets its latest value against the usual range and the 7-day vs 30-day trend', ({ assert }) => {
    const [sleep, hrv, rhr, ratio] = buildTiles(inputs())
    assert.equal(sleep.value, 82)
    assert.equal(sleep.detail, '7 h 05 min asleep')
    assert.deepInclude(sleep.band, { status: 'within', text: 'Within your usual 78–86' })
    assert.deepInclude(sleep.trend, { direction: 'flat', verdict: 'stable' })

    assert.equal(hrv.value, 38)
    assert.equal(hrv.display, '38 ms')
    assert.deepInclude(hrv.band, { status: 'below', text: 'Below your usual 45–55 ms' })
    assert.isNull(hrv.anomaly, '38.4 is inside the 1.5 IQR fence (30)')
    assert.deepInclude(hrv.trend, { direction: 'down', verdict: 'declining', changePercent: -16, text: '7-day average 42 ms vs 30-day 50 ms' })

    assert.deepInclude(rhr.band, { status: 'above' })
    assert.equal(rhr.date, '2026-03-14')
    assert.deepInclude(rhr.trend, { direction: 'up', verdict: 'declining' })

    assert.equal(ratio.value, 1.23)
    assert.equal(ratio.detail, 'Polar: Maintaining')
    assert.isNull(ratio.band)
    assert.isNull(ratio.trend)
    assert.equal(ratio.note, 'Baseline still building (4 of 7 days).')
  })

  test('a value beyond the fences is flagged; a metric without values says so', ({ assert }) => {
    const tiles = buildTiles(inputs({ latest: { ...inputs().latest, hrv_rmssd: { date: '2026-03-15', value: 10 }, resting_hr: null } }))
    assert.equal(tiles[1].anomaly, 'critical')
    assert.isNull(tiles[2].value)
    assert.equal(tiles[2].note, 'No value in the last 30 days.')
  })

  test('band edges and durations', ({ assert }) => {
    assert.equal(bandStatus(45, 45, 55), 'within')
    assert.equal(bandStatus(55, 45, 55), 'within')
    assert.equal(bandStatus(44.9, 45, 55), 'below')
    assert.equal(bandStatus(55.1, 45, 55), 'above')
    assert.equal(sleepDuration(8 * 3600), '8 h 00 min asleep')
    assert.equal(sleepDuration(29_990), '8 h 20 min asleep')
  })
})
