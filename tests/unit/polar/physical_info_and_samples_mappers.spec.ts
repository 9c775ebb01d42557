import { test } from '@japa/runner'
import ActivitySample from '#models/activity_sample'
import PhysicalInfo from '#models/physical_info'
import { mapPhysicalInfo, mapPhysicalInfoList } from '#services/polar/mappers/physical_info_mapper'
import {
  mapActivitySamples,
  mapActivitySamplesFromSummaries,
  mapActivitySamplesList,
} from '#services/polar/mappers/activity_samples_mapper'
import { stepsPerMinute, zonePeriods } from '#services/records/activity_minutes'
import { heartRateSamplesOf } from '#services/records/heart_rate_samples_service'

/** The physical-info example of Polar's OpenAPI document (reference §1.6), verbatim. */
const PHYSICAL_INFO = {
  weight: 70.5,
  height: 175.0,
  created: '2024-06-01T12:00:00Z',
  modified: '2024-06-10T12:00:00Z',
  birthday: '1990-01-01',
  gender: 'MALE',
  maximum_heart_rate: 190,
  resting_heart_rate: 60,
  aerobic_threshold: 140,
  anaerobic_threshold: 170,
  vo2_max: 50,
  weight_source: 'SOURCE_USER',
  training_background: 'REGULAR',
  typical_day: 'MOSTLY_MOVING',
  sleep_goal: 'PT8H',
}

/** The day-sample object of the spec (reference §4.1), verbatim. */
const DAY_SAMPLES = {
  date: '2025-08-14',
  steps: {
    interval_ms: 60000,
    total_steps: 8823,
    samples: [
      { steps: 0, timestamp: '2025-08-14T00:00' },
      { steps: 42, timestamp: '2025-08-14T07:31' },
    ],
  },
  activity_zones: {
    samples: [
      { zone: 'SLEEP', timestamp: '2025-08-14T00:00:00' },
      { zone: 'SEDENTARY', timestamp: '2025-08-14T06:58:30' },
      { zone: 'LIGHT', timestamp: '2025-08-14T07:30:00' },
    ],
  },
  inactivity_stamps: [{ stamp: '2025-08-14T16:04' }],
}

test.group('Polar mappers | physical information', () => {
  test('maps the spec example to exactly the physical_infos columns, keyed by modified', ({ assert }) => {
    const row = mapPhysicalInfo(PHYSICAL_INFO)!
    assert.includeMembers([...PhysicalInfo.$columns], Object.keys(row))
    assert.deepEqual(row, {
      measuredAt: '2024-06-10T12:00:00Z',
      date: '2024-06-10',
      weightKg: 70.5,
      heightCm: 175,
      vo2Max: 50,
      maxHeartRate: 190,
      restingHeartRate: 60,
      aerobicThreshold: 140,
      anaerobicThreshold: 170,
      sleepGoal: 'PT8H',
      sleepGoalMinutes: 480,
      weightSource: 'SOURCE_USER',
      trainingBackground: 'REGULAR',
      typicalDay: 'MOSTLY_MOVING',
      gender: 'MALE',
      birthday: '1990-01-01',
    })
  })

  test('the local date follows the user offset; created stands in for a missing modified', ({ assert }) => {
    assert.equal(mapPhysicalInfo({ ...PHYSICAL_INFO, modified: '2024-06-10T23:30:00Z' }, 120)!.date, '2024-06-11')
    assert.equal(mapPhysicalInfo({ ...PHYSICAL_INFO, modified: '2024-06-10T00:30:00Z' }, -300)!.date, '2024-06-09')
    const { modified: _modified, ...withoutModified } = PHYSICAL_INFO
    assert.equal(mapPhysicalInfo(withoutModified)!.measuredAt, '2024-06-01T12:00:00Z')
    // An offset timestamp and fractional seconds normalise to the same UTC second.
    assert.equal(mapPhysicalInfo({ ...PHYSICAL_INFO, modified: '2024-06-10T14:00:00.250+02:00' })!.measuredAt, '2024-06-10T12:00:00Z')
  })

  test('settings never made are null, never 0 or -1', ({ assert }) => {
    const row = mapPhysicalInfo({
      modified: '2026-01-05T08:00:00Z',
      weight: 0,
      height: -1,
      vo2_max: 0,
      maximum_heart_rate: null as unknown as number,
      resting_heart_rate: -1,
      aerobic_threshold: 'n/a' as unknown as number,
      sleep_goal: 'PT0S',
      gender: '',
      birthday: '1990-02-30',
    })!
    assert.deepEqual(row, {
      measuredAt: '2026-01-05T08:00:00Z',
      date: '2026-01-05',
      weightKg: null,
      heightCm: null,
      vo2Max: null,
      maxHeartRate: null,
      restingHeartRate: null,
      aerobicThreshold: null,
      anaerobicThreshold: null,
      sleepGoal: null,
      sleepGoalMinutes: null,
      weightSource: null,
      trainingBackground: null,
      typicalDay: null,
      gender: null,
      birthday: null,
    })
  })

  test('an answer without created or modified cannot be placed and maps to nothing', ({ assert }) => {
    assert.isNull(mapPhysicalInfo({ weight: 70 }))
    assert.isNull(mapPhysicalInfo({ weight: 70, modified: 'yesterday' }))
    assert.isNull(mapPhysicalInfo(null as never))
    assert.deepEqual(mapPhysicalInfoList([{ weight: 70 }, PHYSICAL_INFO, PHYSICAL_INFO]).length, 1)
  })
})

test.group('Polar mappers | activity samples', () => {
  test('maps the spec day-sample object to exactly the activity_samples columns', ({ assert }) => {
    const row = mapActivitySamples(DAY_SAMPLES)!
    assert.includeMembers([...ActivitySample.$columns], Object.keys(row))
    assert.deepEqual(row, {
      date: '2025-08-14',
      intervalMs: 60000,
      totalSteps: 8823,
      stepRunCount: 2,
      stepSamples: JSON.stringify([
        { time: '2025-08-14 00:00:00', steps: 0 },
        { time: '2025-08-14 07:31:00', steps: 42 },
      ]),
      zoneSamples: JSON.stringify([
        { time: '2025-08-14 00:00:00', zone: 'SLEEP' },
        { time: '2025-08-14 06:58:30', zone: 'SEDENTARY' },
        { time: '2025-08-14 07:30:00', zone: 'LIGHT' },
      ]),
      inactivityStamps: JSON.stringify(['2025-08-14 16:04:00']),
    })
  })

  test('reads the other inactivity shape, sorts out-of-order samples and drops unreadable ones', ({ assert }) => {
    const row = mapActivitySamples({
      date: '2025-08-14',
      steps: { samples: [{ steps: 5, timestamp: '2025-08-14T09:00' }, { steps: 0, timestamp: 'garbage' }, { steps: -3, timestamp: '2025-08-14T08:00' }] },
      inactivity_stamps: { samples: [{ timestamp: '2025-08-14T12:00' }, { timestamp: '2025-08-14T11:00' }] },
    })!
    assert.deepEqual(JSON.parse(row.stepSamples!), [
      { time: '2025-08-14 08:00:00', steps: null },
      { time: '2025-08-14 09:00:00', steps: 5 },
    ])
    assert.deepEqual(JSON.parse(row.inactivityStamps!), ['2025-08-14 11:00:00', '2025-08-14 12:00:00'])
    assert.isNull(row.intervalMs)
    assert.isNull(row.totalSteps)
    assert.isNull(row.zoneSamples)
  })

  test('missing parts are null (not measured), a day without a date maps to nothing', ({ assert }) => {
    assert.deepEqual(mapActivitySamples({ date: '2025-08-14' }), {
      date: '2025-08-14',
      intervalMs: null,
      totalSteps: null,
      stepRunCount: 0,
      stepSamples: null,
      zoneSamples: null,
      inactivityStamps: null,
    })
    assert.isNull(mapActivitySamples({ steps: { total_steps: 3 } }))
    assert.isNull(mapActivitySamples({ date: '2025-02-30' }))
    assert.lengthOf(mapActivitySamplesList([DAY_SAMPLES, { ...DAY_SAMPLES }, { steps: {} }]), 1)
  })

  test('summaries fetched with the sample flags give one row per day that has samples', ({ assert }) => {
    const { date: _date, ...undated } = DAY_SAMPLES
    const rows = mapActivitySamplesFromSummaries([
      { start_time: '2025-08-14T00:00', steps: 8823, samples: undated },
      { start_time: '2025-08-15T00:00', steps: 100 },
      { start_time: '2025-08-16T00:00', samples: { ...DAY_SAMPLES, date: '2025-08-16' } },
    ])
    assert.deepEqual(
      rows.map((r) => [r.date, r.totalSteps]),
      [
        ['2025-08-14', 8823],
        ['2025-08-16', 8823],
      ]
    )
  })
})

test.group('Activity samples | per-minute expansion', () => {
  const runs = (...list: Array<[string, number | null]>) => list.map(([time, steps]) => ({ time: `2025-08-14 ${time}`, steps }))

  test('a run repeats its count each minute until the next run; a last run of 0 lasts until midnight', ({ assert }) => {
    const minutes = stepsPerMinute('2025-08-14', runs(['00:00:00', 0], ['07:31:00', 42], ['07:35:00', 0]), 60000, 168)!
    assert.lengthOf(minutes, 1440)
    assert.deepEqual(minutes.slice(450, 456), [0, 42, 42, 42, 42, 0])
    assert.equal(minutes[1439], 0)
    assert.equal(minutes.reduce((sum: number, n) => sum + (n ?? 0), 0), 168)
  })

  test('a last run that counts steps lasts as long as the total leaves for it', ({ assert }) => {
    // The spec example: 0 from midnight, then 42 a minute from 07:31 for 8 823 steps: 210 minutes.
    const minutes = stepsPerMinute('2025-08-14', runs(['00:00:00', 0], ['07:31:00', 42]), 60000, 8823)!
    assert.equal(minutes.filter((n) => n === 42).length, 210)
    assert.deepEqual([minutes[450], minutes[451], minutes[660], minutes[661]], [0, 42, 42, null])
    // Without a total, one interval.
    const unknown = stepsPerMinute('2025-08-14', runs(['07:31:00', 42]), 60000, null)!
    assert.deepEqual([unknown[450], unknown[451], unknown[452]], [null, 42, null])
  })

  test('minutes before the first run and runs without a count are null; short intervals add up per minute', ({ assert }) => {
    const minutes = stepsPerMinute('2025-08-14', runs(['06:00:00', null], ['06:02:00', 4]), 30000, 16)!
    assert.deepEqual(minutes.slice(359, 364), [null, null, null, 8, 8])
    assert.isNull(stepsPerMinute('2025-08-14', [], 60000, 0))
  })

  test('zone changes become periods ending at the next change or at midnight', ({ assert }) => {
    const periods = zonePeriods('2025-08-14', [
      { time: '2025-08-14 00:00:00', zone: 'SLEEP' },
      { time: '2025-08-14 06:58:30', zone: 'SEDENTARY' },
      { time: '2025-08-14 07:30:00', zone: 'LIGHT' },
      { time: '2025-08-15 00:10:00', zone: 'SLEEP' },
    ])
    assert.deepEqual(periods, [
      { start: '2025-08-14 00:00:00', end: '2025-08-14 06:58:30', zone: 'SLEEP', durationSeconds: 25110 },
      { start: '2025-08-14 06:58:30', end: '2025-08-14 07:30:00', zone: 'SEDENTARY', durationSeconds: 1890 },
      { start: '2025-08-14 07:30:00', end: '2025-08-15 00:00:00', zone: 'LIGHT', durationSeconds: 59400 },
    ])
  })
})

test.group('Continuous heart rate | served samples', () => {
  test('keeps samples > 0 in time order on the date, whatever time form is stored', ({ assert }) => {
    const stored = JSON.stringify([
      { time: '00:07:08', heart_rate: 62 },
      { time: '00:02:08', heart_rate: 63 },
      { time: '00:12:08', heart_rate: 0 },
      { time: '00:17:08', heart_rate: null },
      { time: '2022-09-12 00:22:08', heart_rate: 61.6 },
      { time: 'noon', heart_rate: 70 },
    ])
    assert.deepEqual(heartRateSamplesOf('2022-09-12', stored), [
      { time: '2022-09-12 00:02:08', bpm: 63 },
      { time: '2022-09-12 00:07:08', bpm: 62 },
      { time: '2022-09-12 00:22:08', bpm: 62 },
    ])
    assert.deepEqual(heartRateSamplesOf('2022-09-12', null), [])
    assert.deepEqual(heartRateSamplesOf('2022-09-12', 'not json'), [])
  })
})
