import { test } from '@japa/runner'
import { formatIsoDuration, isoDurationToMinutes, parseIsoDuration, roundTo } from '#services/polar/durations'
import {
  dateChunks,
  epochToLocal,
  expandClockSeries,
  isIsoDate,
  localWithOffset,
  naiveToLocal,
  parseClockKey,
  parseDateTime,
  utcNaiveToLocal,
  wakeDateAnchor,
} from '#services/polar/local_times'

test.group('Polar parsing | ISO durations', () => {
  test('parses {$self}')
    .with([
      ['PT2H44M45S', 9885],
      ['PT51M5S', 3065],
      ['PT4S', 4],
      ['PT8H', 28_800],
      ['PT14295.773S', 14_295.773],
      ['PT4H51M38.512S', 17_498.512],
      ['PT0S', 0],
      ['P1DT2H', 93_600],
    ] as const)
    .run(({ assert }, [text, seconds]) => {
      assert.closeTo(parseIsoDuration(text)!, seconds, 1e-9)
    })

  test('gives null for missing or malformed value {$self}')
    .with([undefined, null, '', 'PT', 'P', '2H', 'PTXS', 42, 'PT1H30'])
    .run(({ assert }, value) => {
      assert.isNull(parseIsoDuration(value))
    })

  test('converts to minutes with one decimal and formats back', ({ assert }) => {
    assert.equal(isoDurationToMinutes('PT14295.773S'), 238.3)
    assert.equal(formatIsoDuration(3723.5), 'PT1H2M3.5S')
    assert.equal(formatIsoDuration(3723.5, 'seconds'), 'PT3723.5S')
    assert.equal(formatIsoDuration(0), 'PT0S')
    assert.equal(parseIsoDuration(formatIsoDuration(14_295.773)), 14_295.773)
  })

  test('rounds half away from zero', ({ assert }) => {
    assert.equal(roundTo(1.005, 2), 1.01)
    assert.equal(roundTo(-2.5, 0), -3)
    assert.equal(roundTo(7.25, 1), 7.3)
  })
})

test.group('Polar parsing | times', () => {
  test('keeps the wall clock of an offset datetime and computes UTC', ({ assert }) => {
    assert.deepEqual(parseDateTime('2026-08-19T23:10:12+02:00'), {
      local: '2026-08-19 23:10:12',
      offsetMinutes: 120,
      utc: '2026-08-19T21:10:12.000Z',
    })
    assert.deepEqual(parseDateTime('2026-03-01T06:00:00-05:30'), {
      local: '2026-03-01 06:00:00',
      offsetMinutes: -330,
      utc: '2026-03-01T11:30:00.000Z',
    })
    assert.equal(parseDateTime('2026-08-17T22:14:10.000Z')!.offsetMinutes, 0)
    assert.deepEqual(parseDateTime('2026-08-17T20:14:48'), { local: '2026-08-17 20:14:48', offsetMinutes: null, utc: null })
  })

  test('reads exercise local start plus minute offset', ({ assert }) => {
    assert.deepEqual(localWithOffset('2026-08-17T20:14:48', 120), {
      local: '2026-08-17 20:14:48',
      offsetMinutes: 120,
      utc: '2026-08-17T18:14:48.000Z',
    })
    assert.isNull(localWithOffset('not a time', 120))
  })

  test('normalises naive local times without seconds or with fractions', ({ assert }) => {
    assert.equal(naiveToLocal('2026-06-10T00:00'), '2026-06-10 00:00:00')
    assert.equal(naiveToLocal('2022-11-20T20:52:20.57'), '2022-11-20 20:52:20')
    assert.isNull(naiveToLocal('2026-02-30T00:00'))
  })

  test('shifts naive UTC SleepWise times into local time across midnight', ({ assert }) => {
    assert.equal(utcNaiveToLocal('2022-11-20T22:52:20.57', 120)!.local, '2022-11-21 00:52:20')
    assert.equal(utcNaiveToLocal('2022-11-21T03:00:00', -300)!.local, '2022-11-20 22:00:00')
    assert.equal(utcNaiveToLocal('2022-11-21T03:00:00Z', null)!.local, '2022-11-21 03:00:00')
  })

  test('reads epoch test times in seconds or milliseconds', ({ assert }) => {
    const seconds = epochToLocal(1697787256, 180)!
    const millis = epochToLocal(1697787256000, 180)!
    assert.equal(seconds.utc, '2023-10-20T07:34:16.000Z')
    assert.equal(seconds.local, '2023-10-20 10:34:16')
    assert.deepEqual(millis, seconds)
    assert.isNull(epochToLocal(0, 0))
    assert.isNull(epochToLocal(undefined, 0))
  })

  test('parses clock keys with and without seconds', ({ assert }) => {
    assert.equal(parseClockKey('00:02:08'), 128)
    assert.equal(parseClockKey('23:59'), 86_340)
    assert.equal(parseClockKey('12:37:33.000'), 45_453)
    assert.isNull(parseClockKey('24:00'))
    assert.isNull(parseClockKey('7am'))
  })

  test('rolls HH:MM keys over midnight from the sleep start', ({ assert }) => {
    const series = expandClockSeries({ '23:10': 61, '23:55': 58, '00:28': 55, '06:59': 60 }, '2026-08-19 23:10:12')
    assert.deepEqual(series, [
      { at: '2026-08-19 23:10:00', value: 61 },
      { at: '2026-08-19 23:55:00', value: 58 },
      { at: '2026-08-20 00:28:00', value: 55 },
      { at: '2026-08-20 06:59:00', value: 60 },
    ])
  })

  test('rolls over correctly whatever order the keys arrive in', ({ assert }) => {
    const series = expandClockSeries({ '00:28': 55, '06:59': 60, '23:10': 61 }, '2026-08-19 23:10:12')
    assert.deepEqual(series.map((s) => s.at), ['2026-08-19 23:10:00', '2026-08-20 00:28:00', '2026-08-20 06:59:00'])
  })

  test('keeps keys just before the start on the start day and skips malformed keys', ({ assert }) => {
    const series = expandClockSeries({ '23:05': 1, 'xx': 2, '00:30': 3 }, '2026-08-19 23:10:12')
    assert.deepEqual(series.map((s) => s.at), ['2026-08-19 23:05:00', '2026-08-20 00:30:00'])
  })

  test('places a night that starts after midnight on the wake-up date', ({ assert }) => {
    const series = expandClockSeries({ '00:40': 1, '07:00': 2 }, '2026-08-20 00:39:07')
    assert.deepEqual(series.map((s) => s.at), ['2026-08-20 00:40:00', '2026-08-20 07:00:00'])
  })

  test('anchors recharge samples on the eve of the wake-up date', ({ assert }) => {
    const series = expandClockSeries({ '23:41': 38, '02:10': 44 }, wakeDateAnchor('2026-03-01'), 0)
    assert.deepEqual(series.map((s) => s.at), ['2026-02-28 23:41:00', '2026-03-01 02:10:00'])
  })

  test('splits ranges into chunks of at most 28 days', ({ assert }) => {
    const chunks = dateChunks('2026-01-01', '2026-03-01', 28)
    assert.deepEqual(chunks, [
      { from: '2026-01-01', to: '2026-01-28' },
      { from: '2026-01-29', to: '2026-02-25' },
      { from: '2026-02-26', to: '2026-03-01' },
    ])
    assert.deepEqual(dateChunks('2026-01-01', '2026-01-01'), [{ from: '2026-01-01', to: '2026-01-01' }])
    assert.deepEqual(dateChunks('2026-01-02', '2026-01-01'), [])
  })

  test('validates calendar dates', ({ assert }) => {
    assert.isTrue(isIsoDate('2024-02-29'))
    assert.isFalse(isIsoDate('2026-02-29'))
    assert.isFalse(isIsoDate('2026-2-1'))
    assert.isFalse(isIsoDate(20260201))
  })
})
