import { test } from '@japa/runner'
import CardioLoad from '#models/cardio_load'
import DailyActivity from '#models/daily_activity'
import Exercise from '#models/exercise'
import HeartRateDay from '#models/heart_rate_day'
import { normaliseHeartRateDays } from '#services/polar/accesslink_client'
import { mapCardioLoad, mapCardioLoadList } from '#services/polar/mappers/cardio_load_mapper'
import { mapDailyActivity, mapDailyActivityList } from '#services/polar/mappers/daily_activity_mapper'
import { activityScore, metersToKm, secondsToMinutes } from '#services/polar/mappers/derived'
import { mapExercise, mapExerciseList } from '#services/polar/mappers/exercise_mapper'
import { mapHeartRateDay, mapHeartRateDays } from '#services/polar/mappers/heart_rate_mapper'

/** Live capture of the activities endpoint (reference §4.1), verbatim. */
const ACTIVITY = {
  start_time: '2026-06-10T00:00',
  end_time: '2026-06-10T23:59:59',
  active_duration: 'PT8H19M',
  inactive_duration: 'PT7H12M30S',
  daily_activity: 164.44,
  calories: 2100,
  active_calories: 400,
  steps: 8500,
  inactivity_alert_count: 1,
  distance_from_steps: 5877.54,
}

/** Live capture of an exercise (reference §5.1), verbatim, plus zones as `zones=true` adds them. */
const EXERCISE = {
  'id': 'y3BwKd7Y',
  'upload_time': '2026-08-17T22:14:10Z',
  'polar_user': 'https://www.polaraccesslink.com/v3/users/64323403',
  'device': 'Polar Ignite 3',
  'device_id': '12C52633',
  'start_time': '2026-08-17T20:14:48',
  'start_time_utc_offset': 120,
  'duration': 'PT14295.773S',
  'heart_rate': { average: 96, maximum: 158 },
  'sport': 'OTHER',
  'has_route': false,
  'detailed_sport_info': 'VERTICALSPORTS_WALLCLIMBING',
  'calories': 1231,
  'fat_percentage': 61,
  'carbohydrate_percentage': 38,
  'protein_percentage': 1,
  'heart_rate_zones': [
    { 'index': 1, 'lower-limit': 95, 'upper-limit': 114, 'in-zone': 'PT1H2M4S' },
    { 'index': 2, 'lower-limit': 114, 'upper-limit': 133, 'in-zone': 'PT4.5S' },
  ],
}

test.group('Polar mappers | daily activity', () => {
  test('maps the live capture to exactly the daily_activities columns', ({ assert }) => {
    const row = mapDailyActivity(ACTIVITY)!
    assert.includeMembers([...DailyActivity.$columns], Object.keys(row))
    assert.deepEqual(row, {
      date: '2026-06-10',
      startTime: '2026-06-10 00:00:00',
      endTime: '2026-06-10 23:59:59',
      steps: 8500,
      caloriesTotal: 2100,
      caloriesActive: 400,
      distanceMeters: 5877.54,
      activeDurationSeconds: 29_940,
      inactiveDurationSeconds: 25_950,
      dailyActivity: 164.44,
      inactivityAlertCount: 1,
      stepSamples: null,
      activityZones: null,
    })
    assert.equal(metersToKm(row.distanceMeters), 5.88)
    assert.equal(secondsToMinutes(row.activeDurationSeconds), 499)
    assert.equal(activityScore(row.dailyActivity), 164)
  })

  test('keeps samples when they were requested', ({ assert }) => {
    const row = mapDailyActivity({
      ...ACTIVITY,
      samples: {
        date: '2026-06-10',
        steps: { interval_ms: 60000, total_steps: 8500, samples: [{ steps: 0, timestamp: '2026-06-10T00:00' }, { steps: 42, timestamp: '2026-06-10T07:31' }] },
        activity_zones: { samples: [{ zone: 'SLEEP', timestamp: '2026-06-10T00:00:00' }, { zone: 'LIGHT', timestamp: '2026-06-10T07:30:00' }] },
      },
    })!
    assert.deepEqual(JSON.parse(row.stepSamples!), {
      interval_ms: 60000,
      total_steps: 8500,
      samples: [
        { time: '2026-06-10 00:00:00', steps: 0 },
        { time: '2026-06-10 07:31:00', steps: 42 },
      ],
    })
    assert.deepEqual(JSON.parse(row.activityZones!)[1], { time: '2026-06-10 07:30:00', zone: 'LIGHT' })
  })

  test('maps missing keys to null and drops days without a start time', ({ assert }) => {
    const row = mapDailyActivity({ start_time: '2026-06-11T00:00:00', steps: 0 })!
    assert.strictEqual(row.steps, 0)
    assert.isNull(row.caloriesTotal)
    assert.isNull(row.activeDurationSeconds)
    assert.isNull(mapDailyActivity({ steps: 10 }))
    assert.lengthOf(mapDailyActivityList([ACTIVITY, ACTIVITY, { steps: 1 }]), 1)
  })
})

test.group('Polar mappers | exercise', () => {
  test('maps the live capture to exactly the exercises columns', ({ assert }) => {
    const row = mapExercise(EXERCISE)!
    assert.includeMembers([...Exercise.$columns], Object.keys(row))
    assert.deepInclude(row, {
      polarExerciseId: 'y3BwKd7Y',
      startTime: '2026-08-17 20:14:48',
      startDate: '2026-08-17',
      startTimeUtcOffset: 120,
      uploadTime: '2026-08-17T22:14:10Z',
      device: 'Polar Ignite 3',
      deviceId: '12C52633',
      durationSeconds: 14_295.773,
      sport: 'OTHER',
      detailedSportInfo: 'VERTICALSPORTS_WALLCLIMBING',
      distanceMeters: null,
      calories: 1231,
      averageHeartRate: 96,
      maxHeartRate: 158,
      trainingLoad: null,
      runningIndex: null,
      fatPercentage: 61,
      carbohydratePercentage: 38,
      proteinPercentage: 1,
      hasRoute: false,
      trainingLoadPro: null,
    })
    assert.equal(secondsToMinutes(row.durationSeconds), 238.3)
  })

  test('reads kebab-case zones and running index inside the snake_case object', ({ assert }) => {
    const row = mapExercise({ ...EXERCISE, 'running-index': 51, 'distance': 10_234.5, 'training_load': 143.22 })!
    assert.deepEqual(JSON.parse(row.heartRateZones!), [
      { index: 1, lower_limit: 95, upper_limit: 114, in_zone_seconds: 3724 },
      { index: 2, lower_limit: 114, upper_limit: 133, in_zone_seconds: 4.5 },
    ])
    assert.equal(row.runningIndex, 51)
    assert.equal(metersToKm(row.distanceMeters), 10.23)
    assert.equal(row.trainingLoad, 143.22)
  })

  test('normalises training load pro and nulls its -1 values', ({ assert }) => {
    const row = mapExercise({
      ...EXERCISE,
      training_load_pro: {
        'date': '2026-08-17',
        'cardio-load': 81.2,
        'muscle-load': -1,
        'cardio-load-interpretation': 'MEDIUM',
        'user-rpe': 'RPE_MODERATE',
      },
    })!
    assert.deepEqual(JSON.parse(row.trainingLoadPro!), {
      date: '2026-08-17',
      cardio_load: 81.2,
      muscle_load: null,
      perceived_load: null,
      cardio_load_interpretation: 'MEDIUM',
      muscle_load_interpretation: null,
      perceived_load_interpretation: null,
      user_rpe: 'RPE_MODERATE',
    })
  })

  test('skips exercises without an id or start time and dedupes by id', ({ assert }) => {
    const { id: _id, ...noId } = EXERCISE
    assert.isNull(mapExercise(noId))
    assert.isNull(mapExercise({ ...EXERCISE, start_time: undefined }))
    assert.lengthOf(mapExerciseList([EXERCISE, EXERCISE]), 1)
    assert.isNull(mapExercise({ ...EXERCISE, heart_rate_zones: undefined })!.heartRateZones)
  })
})

test.group('Polar mappers | cardio load', () => {
  test('stores -1.0 sentinels as null on a not-available day', ({ assert }) => {
    const row = mapCardioLoad({
      cardio_load_level: { very_low: 0.0, low: 0.0, medium: 0.0, high: 0.0, very_high: 0.0 },
      date: '2025-12-14',
      cardio_load_status: 'LOAD_STATUS_NOT_AVAILABLE',
      cardio_load_ratio: -1.0,
      cardio_load: -1.0,
      strain: 0.0,
      tolerance: -1.0,
    })!
    assert.includeMembers([...CardioLoad.$columns], Object.keys(row))
    assert.deepEqual(row, {
      date: '2025-12-14',
      cardioLoad: null,
      strain: 0,
      tolerance: null,
      cardioLoadRatio: null,
      cardioLoadStatus: 'LOAD_STATUS_NOT_AVAILABLE',
      levelVeryLow: null,
      levelLow: null,
      levelMedium: null,
      levelHigh: null,
      levelVeryHigh: null,
    })
  })

  test('maps a populated day and reads both very_high spellings', ({ assert }) => {
    const day = {
      date: '2026-09-09',
      cardio_load_status: 'PRODUCTIVE',
      cardio_load: 143.2,
      strain: 95.1,
      tolerance: 88.0,
      cardio_load_ratio: 1.08,
      cardio_load_level: { 'very_low': 20.0, 'low': 50.0, 'medium': 90.0, 'high': 120.0, 'very-high': 150.0 },
    }
    assert.deepInclude(mapCardioLoad(day)!, { cardioLoad: 143.2, cardioLoadRatio: 1.08, levelVeryLow: 20, levelVeryHigh: 150, cardioLoadStatus: 'PRODUCTIVE' })
    assert.equal(mapCardioLoad({ ...day, cardio_load: 0 })!.cardioLoad, 0)
    assert.isNull(mapCardioLoad({ ...day, cardio_load_level: {} })!.levelHigh)
    assert.lengthOf(mapCardioLoadList([day, day, { strain: 1 }]), 1)
  })
})

test.group('Polar mappers | continuous heart rate', () => {
  const DAY = {
    polar_user: 'https://polaraccesslink.com/v3/users/627139',
    date: '2022-09-12',
    heart_rate_samples: [
      { heart_rate: 63, sample_time: '00:02:08' },
      { heart_rate: 62, sample_time: '00:07:08' },
      { heart_rate: 0, sample_time: '00:12:08' },
      { heart_rate: null, sample_time: '00:17:08' },
      { heart_rate: 120, sample_time: '13:00:00' },
      { heart_rate: 58, sample_time: '00:01:00' },
    ],
  }

  test('summarises samples above 0 and keeps the samples sorted', ({ assert }) => {
    const row = mapHeartRateDay(DAY)!
    assert.includeMembers([...HeartRateDay.$columns], Object.keys(row))
    assert.deepInclude(row, { date: '2022-09-12', hrMin: 58, hrAvg: 76, hrMax: 120, sampleCount: 4 })
    const samples = JSON.parse(row.samples!) as Array<{ time: string; heart_rate: number | null }>
    assert.deepEqual(samples.map((s) => s.time), ['00:01:00', '00:02:08', '00:07:08', '00:12:08', '00:17:08', '13:00:00'])
    assert.isNull(samples[3].heart_rate)
  })

  test('gives nulls and zero count for a day without valid samples', ({ assert }) => {
    assert.deepInclude(mapHeartRateDay({ date: '2022-09-13', heart_rate_samples: [{ heart_rate: 0, sample_time: '01:00:00' }] })!, {
      hrMin: null,
      hrAvg: null,
      hrMax: null,
      sampleCount: 0,
    })
    assert.deepInclude(mapHeartRateDay({ date: '2022-09-13' })!, { sampleCount: 0, samples: null })
  })

  test('accepts a bare object, a heart_rates wrapper or an array', ({ assert }) => {
    assert.lengthOf(normaliseHeartRateDays(DAY), 1)
    assert.lengthOf(normaliseHeartRateDays({ heart_rates: [DAY, { ...DAY, date: '2022-09-13' }] }), 2)
    assert.lengthOf(normaliseHeartRateDays([DAY]), 1)
    assert.lengthOf(normaliseHeartRateDays(null), 0)
  })

  test('keeps the fuller copy of a day that arrives twice', ({ assert }) => {
    const rows = mapHeartRateDays([DAY, { ...DAY, heart_rate_samples: [] }])
    assert.lengthOf(rows, 1)
    assert.equal(rows[0].sampleCount, 4)
  })
})
