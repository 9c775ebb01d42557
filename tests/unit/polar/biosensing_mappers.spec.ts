import { test } from '@japa/runner'
import BodyTemperature from '#models/body_temperature'
import EcgTest from '#models/ecg_test'
import SkinTemperature from '#models/skin_temperature'
import SleepwiseAlertness from '#models/sleepwise_alertness'
import SleepwiseBedtime from '#models/sleepwise_bedtime'
import Spo2Test from '#models/spo2_test'
import {
  mapBodyTemperature,
  mapEcg,
  mapSkinTemperature,
  mapSpo2,
  mapSpo2List,
} from '#services/polar/mappers/biosensing_mapper'
import { clockPart } from '#services/polar/mappers/derived'
import { mapSleepwiseAlertness, mapSleepwiseBedtime } from '#services/polar/mappers/sleepwise_mapper'

const SPO2 = {
  source_device_id: '1111AAAA',
  test_time: 1697787256,
  time_zone_offset: 180,
  test_status: 'SPO2_TEST_PASSED',
  blood_oxygen_percent: 95,
  spo2_class: 'SPO2_CLASS_NORMAL',
  spo2_value_deviation_from_baseline: 'DEVIATION_NO_BASELINE',
  spo2_quality_average_percent: 90.0,
  average_heart_rate_bpm: 60,
  heart_rate_variability_ms: 100.0,
  spo2_hrv_deviation_from_baseline: 'DEVIATION_NO_BASELINE',
  altitude_meters: 50.0,
}

test.group('Polar mappers | SleepWise', () => {
  test('maps an alertness period to local times', ({ assert }) => {
    const row = mapSleepwiseAlertness({
      grade: 9.9,
      grade_validity_seconds: 57600,
      grade_type: 'GRADE_TYPE_PRIMARY',
      grade_classification: 'GRADE_CLASSIFICATION_STRONG',
      validity: 'VALIDITY_ESTIMATE',
      sleep_inertia: 'SLEEP_INERTIA_MILD',
      sleep_type: 'SLEEP_TYPE_PRIMARY',
      result_type: 'ALERTNESS_TYPE_HISTORY',
      period_start_time: '2022-11-20T20:52:20',
      period_end_time: '2022-11-21T19:15:52',
      sleep_period_start_time: '2022-11-20T20:52:20.57',
      sleep_period_end_time: '2022-11-21T04:11:20.57',
      sleep_timezone_offset_minutes: 120,
      hourly_data: [
        { validity: 'VALIDITY_ESTIMATE', alertness_level: 'ALERTNESS_LEVEL_LOW', start_time: '2022-11-21T04:12:00', end_time: '2022-11-21T05:00:00' },
      ],
    })!
    assert.includeMembers([...SleepwiseAlertness.$columns], Object.keys(row))
    assert.deepInclude(row, {
      periodStartTime: '2022-11-20 22:52:20',
      periodEndTime: '2022-11-21 21:15:52',
      periodDate: '2022-11-20',
      grade: 9.9,
      gradeClassification: 'GRADE_CLASSIFICATION_STRONG',
      sleepPeriodStartTime: '2022-11-20 22:52:20',
      sleepPeriodEndTime: '2022-11-21 06:11:20',
      sleepTimezoneOffsetMinutes: 120,
    })
    assert.deepEqual(JSON.parse(row.hourlyData!), [
      { start_time: '2022-11-21 06:12:00', end_time: '2022-11-21 07:00:00', alertness_level: 'ALERTNESS_LEVEL_LOW', validity: 'VALIDITY_ESTIMATE' },
    ])
  })

  test('rolls a bedtime over midnight into local time', ({ assert }) => {
    const row = mapSleepwiseBedtime({
      validity: 'VALIDITY_ESTIMATE',
      quality: 'CIRCADIAN_BEDTIME_QUALITY_COMPROMISED',
      result_type: 'CIRCADIAN_BEDTIME_TYPE_HISTORY',
      period_start_time: '2022-11-20T21:18:30',
      period_end_time: '2022-11-21T05:18:30',
      preferred_sleep_period_start_time: '2022-11-20T21:18:30',
      preferred_sleep_period_end_time: '2022-11-21T05:18:30',
      sleep_gate_start_time: '2022-11-20T21:03:30',
      sleep_gate_end_time: '2022-11-20T21:33:30',
      sleep_timezone_offset_minutes: 180,
    })!
    assert.includeMembers([...SleepwiseBedtime.$columns], Object.keys(row))
    assert.deepInclude(row, {
      periodStartTime: '2022-11-21 00:18:30',
      periodDate: '2022-11-21',
      preferredSleepStartTime: '2022-11-21 00:18:30',
      sleepGateStartTime: '2022-11-21 00:03:30',
      sleepGateEndTime: '2022-11-21 00:33:30',
      quality: 'CIRCADIAN_BEDTIME_QUALITY_COMPROMISED',
    })
    assert.equal(clockPart(row.preferredSleepEndTime), '08:18:30')
  })

  test('skips periods without a start time', ({ assert }) => {
    assert.isNull(mapSleepwiseAlertness({ grade: 5 }))
    assert.isNull(mapSleepwiseBedtime({ quality: 'X' }))
  })
})

test.group('Polar mappers | biosensing', () => {
  test('maps an SpO2 test with a seconds epoch to local time', ({ assert }) => {
    const row = mapSpo2(SPO2)!
    assert.includeMembers([...Spo2Test.$columns], Object.keys(row))
    assert.deepEqual(row, {
      testTimestamp: 1_697_787_256_000,
      testTime: '2023-10-20 10:34:16',
      testDate: '2023-10-20',
      timeZoneOffsetMinutes: 180,
      sourceDeviceId: '1111AAAA',
      testStatus: 'SPO2_TEST_PASSED',
      bloodOxygenPercent: 95,
      spo2Class: 'SPO2_CLASS_NORMAL',
      spo2ValueDeviationFromBaseline: 'DEVIATION_NO_BASELINE',
      spo2QualityAveragePercent: 90,
      averageHeartRateBpm: 60,
      heartRateVariabilityMs: 100,
      spo2HrvDeviationFromBaseline: 'DEVIATION_NO_BASELINE',
      altitudeMeters: 50,
    })
  })

  test('reads a milliseconds epoch as the same instant', ({ assert }) => {
    const seconds = mapSpo2(SPO2)!
    const millis = mapSpo2({ ...SPO2, test_time: 1_697_787_256_000 })!
    assert.deepEqual(millis, seconds)
    assert.lengthOf(mapSpo2List([SPO2, { ...SPO2, test_time: 1_697_787_256_000 }, { ...SPO2, test_time: undefined }]), 1)
  })

  test('keeps an inconclusive SpO2 test with its missing values as null', ({ assert }) => {
    const { blood_oxygen_percent: _b, ...inconclusive } = SPO2
    const row = mapSpo2({ ...inconclusive, test_status: 'SPO2_TEST_INCONCLUSIVE_TOO_LOW_OVERALL_QUALITY', spo2_class: 'SPO2_CLASS_UNKNOWN' })!
    assert.isNull(row.bloodOxygenPercent)
    assert.equal(row.testStatus, 'SPO2_TEST_INCONCLUSIVE_TOO_LOW_OVERALL_QUALITY')
  })

  test('maps an ECG test with its waveform', ({ assert }) => {
    const row = mapEcg({
      source_device_id: '1111AAAA',
      test_time: 1697787256000,
      time_zone_offset: -240,
      average_heart_rate_bpm: 60,
      heart_rate_variability_ms: 42.0,
      heart_rate_variability_level: 'ECG_HRV_LEVEL_USUAL',
      rri_ms: 1000.0,
      pulse_transit_time_systolic_ms: 100.0,
      pulse_transit_time_diastolic_ms: 100.0,
      pulse_transit_time_quality_index: 100.0,
      samples: [{ recording_time_delta_ms: 0, amplitude_mv: 0.1 }, { recording_time_delta_ms: 8, amplitude_mv: -0.02 }],
      quality_measurements: [{ recording_time_delta_ms: 0, quality_level: 'ECG_QUALITY_HIGH' }],
    })!
    assert.includeMembers([...EcgTest.$columns], Object.keys(row))
    assert.deepInclude(row, { testTime: '2023-10-20 03:34:16', testDate: '2023-10-20', sampleCount: 2, heartRateVariabilityLevel: 'ECG_HRV_LEVEL_USUAL' })
    assert.deepEqual(JSON.parse(row.samples!)[1], { time_ms: 8, amplitude_mv: -0.02 })
    assert.deepEqual(JSON.parse(row.qualityMeasurements!), [{ time_ms: 0, quality_level: 'ECG_QUALITY_HIGH' }])
  })

  test('summarises a body-temperature period and converts it with a known offset', ({ assert }) => {
    const wire = {
      source_device_id: '1111AAAA',
      measurement_type: 'TM_CORE_TEMPERATURE',
      sensor_location: 'SL_PROXIMAL',
      start_time: '2023-10-20T22:00:00',
      end_time: '2023-10-20T23:00:00',
      modified_time: '2023-10-20T23:05:00',
      samples: [
        { temperature_celsius: 36.5, recording_time_delta_milliseconds: 0 },
        { temperature_celsius: 36.9, recording_time_delta_milliseconds: 600000 },
        { temperature_celsius: 36.6, recording_time_delta_milliseconds: 1200000 },
      ],
    }
    const utc = mapBodyTemperature(wire)!
    assert.includeMembers([...BodyTemperature.$columns], Object.keys(utc))
    assert.deepInclude(utc, {
      startTime: '2023-10-20 22:00:00',
      startDate: '2023-10-20',
      temperatureMinCelsius: 36.5,
      temperatureAvgCelsius: 36.67,
      temperatureMaxCelsius: 36.9,
      sampleCount: 3,
      measurementType: 'TM_CORE_TEMPERATURE',
    })
    const local = mapBodyTemperature(wire, 120)!
    assert.equal(local.startTime, '2023-10-21 00:00:00')
    assert.equal(local.startDate, '2023-10-21')
    assert.equal(JSON.parse(local.samples!)[1].time, '2023-10-21 00:10:00')
    assert.equal(mapBodyTemperature({ start_time: '2023-10-20T22:00:00' })!.measurementType, 'TM_UNKNOWN')
  })

  test('maps skin temperature and keeps a deviation of 0', ({ assert }) => {
    const row = mapSkinTemperature({ sleep_time_skin_temperature_celsius: 34.1, deviation_from_baseline_celsius: 0, sleep_date: '2023-10-20' })!
    assert.includeMembers([...SkinTemperature.$columns], Object.keys(row))
    assert.deepEqual(row, { sleepDate: '2023-10-20', sleepTimeSkinTemperatureCelsius: 34.1, deviationFromBaselineCelsius: 0 })
    assert.isNull(mapSkinTemperature({ sleep_time_skin_temperature_celsius: 34.1 }))
  })
})
