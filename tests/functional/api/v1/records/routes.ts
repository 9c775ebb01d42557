import { DateTime } from 'luxon'
import SleepRecord from '#models/sleep_record'
import DailyActivity from '#models/daily_activity'
import NightlyRecharge from '#models/nightly_recharge'
import Exercise from '#models/exercise'
import CardioLoad from '#models/cardio_load'
import HeartRateDay from '#models/heart_rate_day'
import SleepwiseAlertness from '#models/sleepwise_alertness'
import SleepwiseBedtime from '#models/sleepwise_bedtime'
import Spo2Test from '#models/spo2_test'
import EcgTest from '#models/ecg_test'
import BodyTemperature from '#models/body_temperature'
import SkinTemperature from '#models/skin_temperature'
import ActivitySample from '#models/activity_sample'
import { SleepRecordFactory } from '#database/factories/sleep_record_factory'
import { DailyActivityFactory } from '#database/factories/daily_activity_factory'
import { NightlyRechargeFactory } from '#database/factories/nightly_recharge_factory'
import { ExerciseFactory } from '#database/factories/exercise_factory'
import { CardioLoadFactory } from '#database/factories/cardio_load_factory'
import { HeartRateDayFactory } from '#database/factories/heart_rate_day_factory'
import { SleepwiseAlertnessFactory } from '#database/factories/sleepwise_alertness_factory'
import { SleepwiseBedtimeFactory } from '#database/factories/sleepwise_bedtime_factory'
import { Spo2TestFactory } from '#database/factories/spo2_test_factory'
import { EcgTestFactory } from '#database/factories/ecg_test_factory'
import { BodyTemperatureFactory } from '#database/factories/body_temperature_factory'
import { SkinTemperatureFactory } from '#database/factories/skin_temperature_factory'
import { ActivitySampleFactory } from '#database/factories/activity_sample_factory'

/**
 * One raw-data list route of the spec: its path, `days` default and
 * maximum, the record's fields in the spec's order (or every stored field
 * where the spec leaves them open), its OpenAPI schema, a factory seed for
 * one record dated `date`, a seed with only the mandatory columns (every
 * measurement null), and how to read a returned record's date.
 */
export interface ListRoute {
  path: string
  defaultDays: number
  maxDays: number
  schema: string
  fields: string[]
  seed(userId: number, date: string): Promise<unknown>
  seedEmpty(userId: number, date: string): Promise<unknown>
  dateOf(record: Record<string, any>): string
  toString(): string
}

const at = (date: string, time: string) => `${date} ${time}`
const epochMs = (date: string, time: string) => DateTime.fromISO(`${date}T${time}Z`).toMillis()

const route = (definition: Omit<ListRoute, 'toString'>): ListRoute => ({
  ...definition,
  toString: () => definition.path,
})

export const LIST_ROUTES: ListRoute[] = [
  route({
    path: 'sleep',
    defaultDays: 7,
    maxDays: 365,
    schema: 'SleepRecord',
    fields: ['date', 'sleep_score', 'total_sleep_hours', 'deep_sleep_hours', 'rem_sleep_hours', 'light_sleep_hours', 'hrv_avg', 'heart_rate_avg'],
    seed: async (userId, date) => {
      await NightlyRechargeFactory.merge({ userId, date }).create()
      return SleepRecordFactory.merge({ userId, date }).create()
    },
    seedEmpty: (userId, date) => SleepRecord.create({ userId, date }),
    dateOf: (r) => r.date,
  }),
  route({
    path: 'activity',
    defaultDays: 30,
    maxDays: 365,
    schema: 'ActivityRecord',
    fields: ['date', 'steps', 'calories_active', 'calories_total', 'distance_km', 'active_minutes', 'activity_score'],
    seed: (userId, date) => DailyActivityFactory.merge({ userId, date }).create(),
    seedEmpty: (userId, date) => DailyActivity.create({ userId, date }),
    dateOf: (r) => r.date,
  }),
  route({
    path: 'recharge',
    defaultDays: 30,
    maxDays: 365,
    schema: 'NightlyRechargeRecord',
    fields: ['date', 'hrv_avg', 'ans_charge', 'ans_charge_status', 'breathing_rate_avg', 'heart_rate_avg'],
    seed: (userId, date) => NightlyRechargeFactory.merge({ userId, date }).create(),
    seedEmpty: (userId, date) => NightlyRecharge.create({ userId, date }),
    dateOf: (r) => r.date,
  }),
  route({
    path: 'exercises',
    defaultDays: 30,
    maxDays: 365,
    schema: 'ExerciseRecord',
    fields: [
      'id',
      'polar_exercise_id',
      'start_time',
      'sport',
      'duration_minutes',
      'distance_km',
      'calories',
      'average_heart_rate',
      'max_heart_rate',
      'training_load',
    ],
    seed: (userId, date) => ExerciseFactory.merge({ userId, startDate: date, startTime: at(date, '18:30:00') }).create(),
    seedEmpty: (userId, date) =>
      Exercise.create({ userId, polarExerciseId: `empty-${date}`, startDate: date, startTime: at(date, '06:00:00') }),
    dateOf: (r) => r.start_time.slice(0, 10),
  }),
  route({
    path: 'cardio-load',
    defaultDays: 30,
    maxDays: 365,
    schema: 'CardioLoadRecord',
    fields: ['date', 'strain', 'tolerance', 'cardio_load', 'cardio_load_ratio', 'cardio_load_status'],
    seed: (userId, date) => CardioLoadFactory.merge({ userId, date }).create(),
    seedEmpty: (userId, date) => CardioLoad.create({ userId, date }),
    dateOf: (r) => r.date,
  }),
  route({
    path: 'heart-rate',
    defaultDays: 30,
    maxDays: 365,
    schema: 'HeartRateSummary',
    fields: ['date', 'hr_min', 'hr_avg', 'hr_max', 'sample_count'],
    seed: (userId, date) => HeartRateDayFactory.merge({ userId, date }).create(),
    seedEmpty: (userId, date) => HeartRateDay.create({ userId, date, sampleCount: 0 }),
    dateOf: (r) => r.date,
  }),
  route({
    path: 'sleepwise/alertness',
    defaultDays: 7,
    maxDays: 30,
    schema: 'SleepAlertnessRecord',
    fields: ['period_start_time', 'period_end_time', 'grade', 'grade_classification'],
    seed: (userId, date) =>
      SleepwiseAlertnessFactory.merge({
        userId,
        periodDate: date,
        periodStartTime: at(date, '07:00:00'),
        periodEndTime: at(date, '23:00:00'),
      }).create(),
    seedEmpty: (userId, date) => SleepwiseAlertness.create({ userId, periodDate: date, periodStartTime: at(date, '08:00:00') }),
    dateOf: (r) => r.period_start_time.slice(0, 10),
  }),
  route({
    path: 'sleepwise/bedtime',
    defaultDays: 7,
    maxDays: 30,
    schema: 'BedtimeRecommendationRecord',
    fields: [
      'period_start_time',
      'period_end_time',
      'preferred_sleep_start',
      'preferred_sleep_end',
      'sleep_gate_start',
      'sleep_gate_end',
      'quality',
    ],
    seed: (userId, date) =>
      SleepwiseBedtimeFactory.merge({ userId, periodDate: date, periodStartTime: at(date, '22:30:00') }).create(),
    seedEmpty: (userId, date) => SleepwiseBedtime.create({ userId, periodDate: date, periodStartTime: at(date, '21:00:00') }),
    dateOf: (r) => r.period_start_time.slice(0, 10),
  }),
  route({
    path: 'spo2',
    defaultDays: 30,
    maxDays: 365,
    schema: 'Spo2Record',
    fields: ['test_time', 'blood_oxygen_percent', 'spo2_class', 'avg_heart_rate', 'hrv_ms', 'altitude_meters'],
    seed: (userId, date) =>
      Spo2TestFactory.merge({
        userId,
        testDate: date,
        testTime: at(date, '09:00:00'),
        testTimestamp: epochMs(date, '09:00:00'),
      }).create(),
    seedEmpty: (userId, date) =>
      Spo2Test.create({ userId, testDate: date, testTime: at(date, '10:00:00'), testTimestamp: epochMs(date, '10:00:00') }),
    dateOf: (r) => r.test_time.slice(0, 10),
  }),
  route({
    path: 'ecg',
    defaultDays: 30,
    maxDays: 365,
    schema: 'EcgRecord',
    fields: [
      'id',
      'test_time',
      'test_timestamp_ms',
      'time_zone_offset_minutes',
      'device_id',
      'average_heart_rate_bpm',
      'heart_rate_variability_ms',
      'heart_rate_variability_level',
      'rri_ms',
      'pulse_transit_time_systolic_ms',
      'pulse_transit_time_diastolic_ms',
      'pulse_transit_time_quality_index',
      'sample_count',
      'samples',
      'quality_measurements',
    ],
    seed: (userId, date) =>
      EcgTestFactory.merge({
        userId,
        testDate: date,
        testTime: at(date, '10:00:00'),
        testTimestamp: epochMs(date, '10:00:00'),
      }).create(),
    seedEmpty: (userId, date) =>
      EcgTest.create({
        userId,
        testDate: date,
        testTime: at(date, '11:00:00'),
        testTimestamp: epochMs(date, '11:00:00'),
        sampleCount: 0,
      }),
    dateOf: (r) => r.test_time.slice(0, 10),
  }),
  route({
    path: 'temperature/body',
    defaultDays: 30,
    maxDays: 365,
    schema: 'BodyTemperatureRecord',
    fields: [
      'start_time',
      'end_time',
      'modified_time',
      'measurement_type',
      'sensor_location',
      'device_id',
      'temperature_min_celsius',
      'temperature_avg_celsius',
      'temperature_max_celsius',
      'sample_count',
      'samples',
    ],
    seed: (userId, date) =>
      BodyTemperatureFactory.merge({
        userId,
        startDate: date,
        startTime: at(date, '02:00:00'),
        endTime: at(date, '03:00:00'),
      }).create(),
    seedEmpty: (userId, date) =>
      BodyTemperature.create({
        userId,
        startDate: date,
        startTime: at(date, '04:00:00'),
        measurementType: 'TM_UNKNOWN',
        sampleCount: 0,
      }),
    dateOf: (r) => r.start_time.slice(0, 10),
  }),
  route({
    path: 'temperature/skin',
    defaultDays: 30,
    maxDays: 365,
    schema: 'SkinTemperatureRecord',
    fields: ['sleep_date', 'sleep_time_skin_temperature_celsius', 'deviation_from_baseline_celsius'],
    seed: (userId, date) => SkinTemperatureFactory.merge({ userId, sleepDate: date }).create(),
    seedEmpty: (userId, date) => SkinTemperature.create({ userId, sleepDate: date }),
    dateOf: (r) => r.sleep_date,
  }),
  route({
    path: 'activity-samples',
    defaultDays: 7,
    maxDays: 30,
    schema: 'ActivitySampleDay',
    fields: ['date', 'interval_ms', 'total_steps', 'steps_per_minute', 'activity_zones', 'inactivity_stamps'],
    seed: (userId, date) => ActivitySampleFactory.merge({ userId, date }).create(),
    seedEmpty: (userId, date) => ActivitySample.create({ userId, date, stepRunCount: 0 }),
    dateOf: (r) => r.date,
  }),
]
