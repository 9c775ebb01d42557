import { test } from '@japa/runner'
import NightlyRecharge from '#models/nightly_recharge'
import SleepRecord from '#models/sleep_record'
import { ansChargeStatusLabel } from '#services/polar/labels'
import { mapNightlyRecharge, mapNightlyRechargeList } from '#services/polar/mappers/nightly_recharge_mapper'
import { mapSleep, mapSleepList } from '#services/polar/mappers/sleep_mapper'
import { secondsToHours, totalSleepHours } from '#services/polar/mappers/derived'
import type { WireNightlyRecharge, WireSleep } from '#services/polar/wire_types'

/** The reference's sleep example (§2), as Polar sends it. */
const NIGHT: WireSleep = {
  polar_user: 'https://www.polaraccesslink.com/v3/users/64323403',
  date: '2026-08-20',
  sleep_start_time: '2026-08-19T23:10:12+02:00',
  sleep_end_time: '2026-08-20T07:05:40+02:00',
  device_id: '12C52633',
  continuity: 3.4,
  continuity_class: 3,
  light_sleep: 14820,
  deep_sleep: 5010,
  rem_sleep: 6060,
  unrecognized_sleep_stage: 120,
  sleep_score: 82,
  total_interruption_duration: 1320,
  sleep_charge: 4,
  sleep_goal: 28800,
  sleep_rating: 0,
  short_interruption_duration: 780,
  long_interruption_duration: 540,
  sleep_cycles: 5,
  group_duration_score: 86.0,
  group_solidity_score: 74.5,
  group_regeneration_score: 69.2,
  hypnogram: { '23:10': 2, '23:14': 3, '23:41': 4, '00:28': 3, '01:05': 1, '01:22': 0, '01:24': 3 },
  heart_rate_samples: { '23:10': 61, '23:15': 58, '23:20': 57, '00:05': 0, '00:10': 52 },
}

const RECHARGE: WireNightlyRecharge = {
  polar_user: 'https://www.polaraccesslink.com/v3/users/64323403',
  date: '2026-08-20',
  heart_rate_avg: 52,
  beat_to_beat_avg: 1150,
  heart_rate_variability_avg: 41,
  breathing_rate_avg: 13.2,
  nightly_recharge_status: 5,
  ans_charge: 1.4,
  ans_charge_status: 4,
  hrv_samples: { '23:41': 38, '23:46': 40, '00:01': 43 },
  breathing_samples: { '23:39': 13.1, '23:44': 13.4, '00:04': 13.2 },
}

function assertColumns(assert: { includeMembers: (a: unknown[], b: unknown[]) => void }, row: object, columns: readonly string[]) {
  assert.includeMembers([...columns], Object.keys(row))
}

test.group('Polar mappers | sleep', () => {
  test('maps a full night to exactly the sleep_records columns', ({ assert }) => {
    const row = mapSleep(NIGHT)!
    assertColumns(assert, row, SleepRecord.$columns)
    assert.deepInclude(row, {
      date: '2026-08-20',
      sleepStartTime: '2026-08-19 23:10:12',
      sleepEndTime: '2026-08-20 07:05:40',
      sleepStartOffsetMinutes: 120,
      sleepEndOffsetMinutes: 120,
      deviceId: '12C52633',
      continuity: 3.4,
      continuityClass: 3,
      lightSleepSeconds: 14820,
      deepSleepSeconds: 5010,
      remSleepSeconds: 6060,
      unrecognizedSleepSeconds: 120,
      sleepScore: 82,
      totalInterruptionSeconds: 1320,
      shortInterruptionSeconds: 780,
      longInterruptionSeconds: 540,
      sleepCharge: 4,
      sleepGoalSeconds: 28800,
      sleepRating: null,
      sleepCycles: 5,
      groupDurationScore: 86,
      groupSolidityScore: 74.5,
      groupRegenerationScore: 69.2,
    })
  })

  test('derives heart_rate_avg from samples above 0, rounded', ({ assert }) => {
    const row = mapSleep(NIGHT)!
    // (61 + 58 + 57 + 52) / 4 = 57; the 0 placeholder is ignored.
    assert.equal(row.heartRateAvg, 57)
    assert.equal(row.heartRateMin, 52)
    assert.equal(row.heartRateMax, 61)
    const rounded = mapSleep({ ...NIGHT, heart_rate_samples: { '23:10': 60, '23:15': 61 } })!
    assert.equal(rounded.heartRateAvg, 61)
  })

  test('resolves hypnogram and sample keys across midnight', ({ assert }) => {
    const row = mapSleep(NIGHT)!
    const hypnogram = JSON.parse(row.hypnogram!) as Array<{ time: string; stage: number }>
    assert.deepEqual(hypnogram.map((h) => h.time), [
      '2026-08-19 23:10:00',
      '2026-08-19 23:14:00',
      '2026-08-19 23:41:00',
      '2026-08-20 00:28:00',
      '2026-08-20 01:05:00',
      '2026-08-20 01:22:00',
      '2026-08-20 01:24:00',
    ])
    assert.deepEqual(hypnogram.map((h) => h.stage), [2, 3, 4, 3, 1, 0, 3])
    const samples = JSON.parse(row.heartRateSamples!) as Array<{ time: string; heart_rate: number | null }>
    assert.deepEqual(samples.at(-2), { time: '2026-08-20 00:05:00', heart_rate: null })
    assert.deepEqual(samples.at(-1), { time: '2026-08-20 00:10:00', heart_rate: 52 })
  })

  test('maps a partial night with only date, times and score', ({ assert }) => {
    const row = mapSleep({
      date: '2026-08-21',
      sleep_start_time: '2026-08-21T01:02:03+02:00',
      sleep_end_time: '2026-08-21T05:00:00+02:00',
      sleep_score: 41,
    })!
    assert.equal(row.sleepScore, 41)
    assert.equal(row.sleepStartTime, '2026-08-21 01:02:03')
    for (const key of ['lightSleepSeconds', 'deepSleepSeconds', 'remSleepSeconds', 'heartRateAvg', 'hypnogram', 'heartRateSamples', 'sleepCharge', 'continuity'] as const) {
      assert.isNull(row[key], key)
    }
    assert.isNull(totalSleepHours(row))
  })

  test('stores Polar placeholders as null and keeps real zeros', ({ assert }) => {
    const row = mapSleep({ ...NIGHT, sleep_charge: -1, continuity: 0, continuity_class: 0, device_id: '', deep_sleep: 0, sleep_rating: 4 })!
    assert.isNull(row.sleepCharge)
    assert.isNull(row.continuity)
    assert.isNull(row.continuityClass)
    assert.isNull(row.deviceId)
    assert.equal(row.deepSleepSeconds, 0)
    assert.equal(row.sleepRating, 4)
  })

  test('places samples on the eve when the start time is missing', ({ assert }) => {
    const { sleep_start_time: _s, ...noStart } = NIGHT
    const row = mapSleep(noStart)!
    const samples = JSON.parse(row.heartRateSamples!) as Array<{ time: string }>
    assert.equal(samples[0].time, '2026-08-19 23:10:00')
    assert.equal(samples.at(-1)!.time, '2026-08-20 00:10:00')
  })

  test('drops nights without a valid date and keeps one row per date', ({ assert }) => {
    assert.isNull(mapSleep({ sleep_score: 80 }))
    assert.isNull(mapSleep({ ...NIGHT, date: '2026-02-30' }))
    const rows = mapSleepList([NIGHT, { ...NIGHT, sleep_score: 90 }, { sleep_score: 1 }])
    assert.lengthOf(rows, 1)
    assert.equal(rows[0].sleepScore, 90)
  })

  test('derives spec hours from stored seconds', ({ assert }) => {
    const row = mapSleep(NIGHT)!
    // 14820 + 5010 + 6060 = 25890 s = 7.1917 h
    assert.equal(totalSleepHours(row), 7.19)
    assert.equal(secondsToHours(row.deepSleepSeconds), 1.39)
    assert.equal(secondsToHours(row.remSleepSeconds), 1.68)
    assert.equal(secondsToHours(row.lightSleepSeconds), 4.12)
  })
})

test.group('Polar mappers | nightly recharge', () => {
  test('maps a recharge to exactly the nightly_recharges columns', ({ assert }) => {
    const row = mapNightlyRecharge(RECHARGE)!
    assertColumns(assert, row, NightlyRecharge.$columns)
    assert.deepInclude(row, {
      date: '2026-08-20',
      heartRateAvg: 52,
      beatToBeatAvg: 1150,
      hrvAvg: 41,
      breathingRateAvg: 13.2,
      nightlyRechargeStatus: 5,
      ansCharge: 1.4,
      ansChargeStatus: 4,
    })
    assert.equal(ansChargeStatusLabel(row.ansChargeStatus), 'above_usual')
  })

  test('resolves sample times from the eve of the wake-up date', ({ assert }) => {
    const row = mapNightlyRecharge(RECHARGE)!
    assert.deepEqual(JSON.parse(row.hrvSamples!), [
      { time: '2026-08-19 23:41:00', hrv: 38 },
      { time: '2026-08-19 23:46:00', hrv: 40 },
      { time: '2026-08-20 00:01:00', hrv: 43 },
    ])
    assert.deepEqual(JSON.parse(row.breathingSamples!).at(-1), { time: '2026-08-20 00:04:00', breathing_rate: 13.2 })
  })

  test('maps a partial recharge with missing keys to nulls', ({ assert }) => {
    const row = mapNightlyRecharge({ date: '2026-08-21', heart_rate_avg: 55, nightly_recharge_status: 3 })!
    assert.equal(row.heartRateAvg, 55)
    assert.equal(row.nightlyRechargeStatus, 3)
    for (const key of ['hrvAvg', 'breathingRateAvg', 'ansCharge', 'ansChargeStatus', 'beatToBeatAvg', 'hrvSamples', 'breathingSamples'] as const) {
      assert.isNull(row[key], key)
    }
  })

  test('keeps an ANS charge of 0 and rejects out-of-range codes', ({ assert }) => {
    const row = mapNightlyRecharge({ ...RECHARGE, ans_charge: 0, ans_charge_status: 9, nightly_recharge_status: 0 })!
    assert.strictEqual(row.ansCharge, 0)
    assert.isNull(row.ansChargeStatus)
    assert.isNull(row.nightlyRechargeStatus)
  })

  test('labels every ANS charge status', ({ assert }) => {
    assert.deepEqual([1, 2, 3, 4, 5, 0, null].map(ansChargeStatusLabel), [
      'much_below_usual',
      'below_usual',
      'usual',
      'above_usual',
      'much_above_usual',
      null,
      null,
    ])
  })

  test('keeps one recharge per date', ({ assert }) => {
    assert.lengthOf(mapNightlyRechargeList([RECHARGE, RECHARGE, { heart_rate_avg: 50 }]), 1)
  })
})
