import {
  apiKeySecurity,
  dataRouteErrors,
  dateParam,
  jsonResponse,
  label,
  listPageHeaders,
  listPageParams,
  LOCAL_TIME,
  localTime,
  nullable,
  objectSchema,
  rateLimitHeaders,
  ref,
  userIdParam,
  windowParams,
  type JsonSchema,
  type OpenApiModule,
} from '#openapi/components'
import { ANS_CHARGE_STATUS_VALUES } from '#services/polar/labels'
import { CSV_TABLES, type CsvExportKind } from '#services/export/csv_tables'

/** Raw-data and export routes. */
export const tags = [
  { name: 'Data', description: 'Synced raw data, newest first: exactly N calendar days ending today (APP_TIMEZONE) or an inclusive from/to range over the whole history, in limit/cursor pages on request.' },
  { name: 'Export', description: 'Export summary, CSV files (RFC 4180, oldest row first, empty cell = not measured), JSON Lines per type and the takeout ZIP.' },
]

const CLOCK_TIME = '^\\d{2}:\\d{2}:\\d{2}$'

const date = (description?: string): JsonSchema => ({ type: 'string', format: 'date', ...(description ? { description } : {}) })
const nullableLocalTime = (description: string) => nullable('string', { pattern: LOCAL_TIME, description })
const nullableArray = (items: JsonSchema, description: string): JsonSchema => ({ type: ['array', 'null'], items, description })


const sleepRecord = {
  date: date('The night’s wake-up date.'),
  sleep_score: nullable('integer', { description: 'Polar sleep score 1–100.' }),
  total_sleep_hours: nullable('number', { description: 'light + deep + REM, hours, 2 dp' }),
  deep_sleep_hours: nullable('number', { description: 'hours, 2 dp' }),
  rem_sleep_hours: nullable('number', { description: 'hours, 2 dp' }),
  light_sleep_hours: nullable('number', { description: 'hours, 2 dp' }),
  hrv_avg: nullable('number', { description: 'RMSSD (ms) of the same night’s Nightly Recharge' }),
  heart_rate_avg: nullable('integer', { description: 'mean of the night’s heart-rate samples > 0, bpm' }),
}

const activityRecord = {
  date: date(),
  steps: nullable('integer'),
  calories_active: nullable('integer', { description: 'kcal' }),
  calories_total: nullable('integer', { description: 'kcal' }),
  distance_km: nullable('number', { description: 'distance estimated from steps, km, 2 dp' }),
  active_minutes: nullable('number', { description: 'active time, minutes, 1 dp' }),
  activity_score: nullable('integer', { description: 'Polar daily activity (% of the daily goal), rounded' }),
}

const exerciseRecord = {
  id: { type: 'integer', description: 'HRVault id of the session (use it with /exercises/{id}).' },
  polar_exercise_id: { type: 'string', description: 'Polar’s exercise id.' },
  start_time: localTime('Local start time.'),
  sport: label('Polar sport label, e.g. RUNNING.'),
  duration_minutes: nullable('number', { description: 'minutes, 1 dp' }),
  distance_km: nullable('number', { description: 'km, 2 dp' }),
  calories: nullable('integer', { description: 'kcal' }),
  average_heart_rate: nullable('integer', { description: 'bpm' }),
  max_heart_rate: nullable('integer', { description: 'bpm' }),
  training_load: nullable('number', { description: 'Polar training load' }),
}

const timedSample = (valueKey: string, valueSchema: JsonSchema) =>
  objectSchema({ time: nullableLocalTime('Local time of the sample.'), [valueKey]: valueSchema })

export const schemas = {
  SleepRecord: objectSchema(sleepRecord),
  SleepNight: objectSchema(
    {
      ...sleepRecord,
      breathing_rate_avg: nullable('number', { description: 'breaths/min, from the same night’s Nightly Recharge' }),
      sleep_start_time: nullableLocalTime('Local time of falling asleep.'),
      sleep_end_time: nullableLocalTime('Local time of waking up.'),
      sleep_start_offset_minutes: nullable('integer', { description: 'UTC offset of sleep_start_time, minutes' }),
      sleep_end_offset_minutes: nullable('integer', { description: 'UTC offset of sleep_end_time, minutes' }),
      device_id: nullable('string'),
      total_sleep_seconds: nullable('integer', { description: 'light + deep + REM, seconds' }),
      light_sleep_seconds: nullable('integer', { description: 'seconds' }),
      deep_sleep_seconds: nullable('integer', { description: 'seconds' }),
      rem_sleep_seconds: nullable('integer', { description: 'seconds' }),
      unrecognized_sleep_seconds: nullable('integer', { description: 'seconds' }),
      total_interruption_seconds: nullable('integer', { description: 'seconds' }),
      short_interruption_seconds: nullable('integer', { description: 'seconds' }),
      long_interruption_seconds: nullable('integer', { description: 'seconds' }),
      continuity: nullable('number', { description: 'Polar continuity index 1.0–5.0' }),
      continuity_class: nullable('integer', { description: '1 fragmented … 5 very continuous' }),
      sleep_charge: nullable('integer', { description: '1 much below usual … 5 much above usual' }),
      sleep_goal_seconds: nullable('integer', { description: 'seconds' }),
      sleep_rating: nullable('integer', { description: 'the user’s own rating 1–5' }),
      sleep_cycles: nullable('integer'),
      group_duration_score: nullable('number'),
      group_solidity_score: nullable('number'),
      group_regeneration_score: nullable('number'),
      heart_rate_min: nullable('integer', { description: 'bpm, over samples > 0' }),
      heart_rate_max: nullable('integer', { description: 'bpm' }),
      hypnogram: nullableArray(
        timedSample('stage', nullable('integer', { description: '0 wake, 1 REM, 2 lighter non-REM, 3 light non-REM, 4 deep non-REM, 5 unknown' })),
        'Sleep stage at each change point.'
      ),
      heart_rate_samples: nullableArray(timedSample('heart_rate', nullable('integer', { description: 'bpm' })), 'Heart rate during the night.'),
    },
    'One night of sleep with its stages, hypnogram and heart-rate samples.'
  ),
  ActivityRecord: objectSchema(activityRecord),
  ActivityDay: objectSchema(
    {
      ...activityRecord,
      start_time: nullableLocalTime('Local start of the day.'),
      end_time: nullableLocalTime('Local end of the day.'),
      distance_meters: nullable('number', { description: 'metres' }),
      active_duration_seconds: nullable('number', { description: 'seconds' }),
      inactive_duration_seconds: nullable('number', { description: 'seconds' }),
      daily_activity_percent: nullable('number', { description: 'Polar daily activity, % of the daily goal (unrounded)' }),
      inactivity_alert_count: nullable('integer'),
      step_samples: {
        type: ['object', 'null'],
        required: ['interval_ms', 'total_steps', 'samples'],
        properties: {
          interval_ms: nullable('integer', { description: 'sample interval, ms' }),
          total_steps: nullable('integer'),
          samples: { type: 'array', items: timedSample('steps', nullable('integer')) },
        },
      },
      activity_zones: nullableArray(
        timedSample('zone', label('SEDENTARY, LIGHT, SLEEP, MODERATE or VIGOROUS')),
        'Activity zone changes: each marks where a zone starts.'
      ),
    },
    'One activity day in raw units with samples and zones.'
  ),
  NightlyRechargeRecord: objectSchema({
    date: date(),
    hrv_avg: nullable('number', { description: 'RMSSD, ms' }),
    ans_charge: nullable('number', { description: 'ANS charge, −10…+10' }),
    ans_charge_status: { type: ['string', 'null'], enum: [...ANS_CHARGE_STATUS_VALUES, null], description: 'ANS charge vs. usual' },
    breathing_rate_avg: nullable('number', { description: 'breaths/min' }),
    heart_rate_avg: nullable('integer', { description: 'bpm' }),
  }),
  ExerciseRecord: objectSchema(exerciseRecord),
  ExerciseDetail: objectSchema(
    {
      ...exerciseRecord,
      start_time_utc_offset_minutes: nullable('integer', { description: 'UTC offset of start_time, minutes' }),
      upload_time: nullable('string', { description: 'When Polar received the session (ISO 8601).' }),
      device: nullable('string'),
      device_id: nullable('string'),
      detailed_sport_info: label('Polar detailed sport, e.g. RUNNING_ROAD.'),
      duration_seconds: nullable('number', { description: 'seconds' }),
      distance_meters: nullable('number', { description: 'metres' }),
      running_index: nullable('integer'),
      fat_percentage: nullable('integer', { description: '% of energy from fat' }),
      carbohydrate_percentage: nullable('integer', { description: '% of energy from carbohydrate' }),
      protein_percentage: nullable('integer', { description: '% of energy from protein' }),
      has_route: nullable('boolean'),
      heart_rate_zones: nullableArray(
        objectSchema({
          index: nullable('integer'),
          lower_limit_bpm: nullable('integer'),
          upper_limit_bpm: nullable('integer'),
          in_zone_seconds: nullable('number'),
        }),
        'Time in each heart-rate zone.'
      ),
      training_load_pro: {
        type: ['object', 'null'],
        description: 'Polar Training Load Pro.',
        required: [
          'date',
          'cardio_load',
          'muscle_load',
          'perceived_load',
          'cardio_load_interpretation',
          'muscle_load_interpretation',
          'perceived_load_interpretation',
          'user_rpe',
        ],
        properties: {
          date: nullable('string', { format: 'date' }),
          cardio_load: nullable('number'),
          muscle_load: nullable('number'),
          perceived_load: nullable('number'),
          cardio_load_interpretation: nullable('string'),
          muscle_load_interpretation: nullable('string'),
          perceived_load_interpretation: nullable('string'),
          user_rpe: nullable('string'),
        },
      },
    },
    'One training session with zones, detailed sport, running index and Training Load Pro.'
  ),
  CardioLoadRecord: objectSchema({
    date: date(),
    strain: nullable('number'),
    tolerance: nullable('number'),
    cardio_load: nullable('number'),
    cardio_load_ratio: nullable('number', { description: 'strain / tolerance; null when Polar has none (its −1)' }),
    cardio_load_status: label('Polar cardio-load status label.'),
  }),
  HeartRateSummary: objectSchema({
    date: date(),
    hr_min: nullable('integer', { description: 'bpm, over samples > 0' }),
    hr_avg: nullable('integer', { description: 'bpm, mean of samples > 0, rounded' }),
    hr_max: nullable('integer', { description: 'bpm' }),
    sample_count: { type: 'integer', description: 'samples stored for the day' },
  }),
  SleepAlertnessRecord: objectSchema({
    period_start_time: localTime('Local start of the period.'),
    period_end_time: nullableLocalTime('Local end of the period.'),
    grade: nullable('number', { description: 'SleepWise “boost from sleep” grade' }),
    grade_classification: label('e.g. GRADE_CLASSIFICATION_STRONG'),
  }),
  BedtimeRecommendationRecord: objectSchema({
    period_start_time: localTime('Local start of the period.'),
    period_end_time: nullableLocalTime('Local end of the period.'),
    preferred_sleep_start: nullable('string', { pattern: CLOCK_TIME, description: 'local HH:MM:SS' }),
    preferred_sleep_end: nullable('string', { pattern: CLOCK_TIME, description: 'local HH:MM:SS' }),
    sleep_gate_start: nullable('string', { pattern: CLOCK_TIME, description: 'local HH:MM:SS: window for falling asleep opens' }),
    sleep_gate_end: nullable('string', { pattern: CLOCK_TIME, description: 'local HH:MM:SS: window closes' }),
    quality: label('e.g. CIRCADIAN_BEDTIME_QUALITY_CLEARLY_RECOGNIZABLE'),
  }),
  Spo2Record: objectSchema({
    test_time: localTime('Local time of the test.'),
    blood_oxygen_percent: nullable('integer', { description: '%' }),
    spo2_class: label('e.g. SPO2_CLASS_NORMAL'),
    avg_heart_rate: nullable('integer', { description: 'bpm' }),
    hrv_ms: nullable('number', { description: 'ms' }),
    altitude_meters: nullable('number', { description: 'metres' }),
  }),
  EcgRecord: objectSchema(
    {
      id: { type: 'integer', description: 'HRVault id of the test.' },
      test_time: localTime('Local time of the test.'),
      test_timestamp_ms: { type: 'integer', description: 'UTC instant of the test, epoch milliseconds' },
      time_zone_offset_minutes: nullable('integer', { description: 'UTC offset of test_time, minutes' }),
      device_id: nullable('string'),
      average_heart_rate_bpm: nullable('integer', { description: 'bpm' }),
      heart_rate_variability_ms: nullable('number', { description: 'ms' }),
      heart_rate_variability_level: label('e.g. ECG_HRV_LEVEL_USUAL'),
      rri_ms: nullable('number', { description: 'mean RR interval, ms' }),
      pulse_transit_time_systolic_ms: nullable('number', { description: 'ms' }),
      pulse_transit_time_diastolic_ms: nullable('number', { description: 'ms' }),
      pulse_transit_time_quality_index: nullable('number'),
      sample_count: { type: 'integer', description: 'waveform samples stored' },
      samples: nullableArray(
        objectSchema({
          time_ms: nullable('number', { description: 'ms from the start of the test' }),
          amplitude_mv: nullable('number', { description: 'mV' }),
        }),
        'ECG waveform.'
      ),
      quality_measurements: nullableArray(
        objectSchema({
          time_ms: nullable('number', { description: 'ms from the start of the test' }),
          quality_level: label('ECG_QUALITY_UNKNOWN, _NO_CONTACT, _LOW or _HIGH'),
        }),
        'Signal quality over the test.'
      ),
    },
    'An ECG test with every stored field.'
  ),
  BodyTemperatureRecord: objectSchema(
    {
      start_time: localTime('Start of the measurement period.'),
      end_time: nullableLocalTime('End of the measurement period.'),
      modified_time: nullableLocalTime('Last modification of the period.'),
      measurement_type: { type: 'string', description: 'TM_SKIN_TEMPERATURE, TM_CORE_TEMPERATURE or TM_UNKNOWN' },
      sensor_location: label('SL_DISTAL, SL_PROXIMAL or SL_UNKNOWN'),
      device_id: nullable('string'),
      temperature_min_celsius: nullable('number', { description: '°C' }),
      temperature_avg_celsius: nullable('number', { description: '°C' }),
      temperature_max_celsius: nullable('number', { description: '°C' }),
      sample_count: { type: 'integer' },
      samples: nullableArray(
        objectSchema({
          time: nullableLocalTime('Time of the sample.'),
          offset_ms: nullable('number', { description: 'ms from start_time' }),
          temperature_celsius: nullable('number', { description: '°C' }),
        }),
        'The period’s samples.'
      ),
    },
    'A body-temperature measurement period with every stored field.'
  ),
  SkinTemperatureRecord: objectSchema(
    {
      sleep_date: date('Date of the night.'),
      sleep_time_skin_temperature_celsius: nullable('number', { description: 'skin temperature during sleep, °C' }),
      deviation_from_baseline_celsius: nullable('number', { description: 'difference from the personal baseline, °C' }),
    },
    'A night’s skin temperature with every stored field.'
  ),
  ExportSummary: objectSchema({
    user_id: { type: 'string' },
    days: { type: 'integer', minimum: 1, maximum: 365 },
    from_date: date('First day of the window (today − (days − 1)).'),
    to_date: date('Last day of the window (today).'),
    record_counts: objectSchema({
      sleep: { type: 'integer' },
      activity: { type: 'integer' },
      recharge: { type: 'integer' },
      cardio_load: { type: 'integer' },
      heart_rate: { type: 'integer' },
      exercises: { type: 'integer' },
    }),
    total_records: { type: 'integer', description: 'sum of record_counts' },
  }),
}

/** A GET list route returning the window (`days` or `from`/`to`) of `schema` records, paged with `limit`/`cursor`. */
function listRoute(operationId: string, summary: string, schema: string, defaultDays: number, maxDays: number, description: string) {
  return {
    get: {
      tags: ['Data'],
      summary,
      description,
      operationId,
      security: apiKeySecurity,
      parameters: [userIdParam, ...windowParams(defaultDays, maxDays), ...listPageParams],
      responses: {
        200: jsonResponse(`${summary}, newest first`, { type: 'array', items: ref(schema) }, { ...rateLimitHeaders, ...listPageHeaders }),
        ...dataRouteErrors(),
      },
    },
  }
}

const exerciseIdParam = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'HRVault exercise id (the `id` of the list); a non-integer is a 422.',
  schema: { type: 'integer', minimum: 1 },
}

/** A CSV export route; its header row comes from the export's table definition. */
function csvRoute(operationId: string, kind: CsvExportKind) {
  const file = `${kind}.csv`
  const columns = CSV_TABLES[kind].columns
  return {
    get: {
      tags: ['Export'],
      summary: `${file} (${columns.length} columns)`,
      description: `Header row \`${columns.join(',')}\`, then one row per day, oldest first. RFC 4180: CRLF line ends, fields with a comma, quote or line break in double quotes. An empty cell means not measured; 0 is written as 0. Only the header row when there is no data. With \`limit\`, each page is a CSV file of its own (header row included).`,
      operationId,
      security: apiKeySecurity,
      parameters: [userIdParam, ...windowParams(30, 365), ...listPageParams],
      responses: {
        200: {
          description: `${file}, streamed`,
          headers: {
            ...rateLimitHeaders,
            ...listPageHeaders,
            'Content-Disposition': {
              schema: { type: 'string' },
              description: `attachment; filename="${kind}_{user_id}_{from}_{to}.csv"`,
            },
          },
          content: { 'text/csv; charset=utf-8': { schema: { type: 'string' } } },
        },
        ...dataRouteErrors(),
      },
    },
  }
}

export const paths: OpenApiModule['paths'] = {
  '/api/v1/users/{user_id}/sleep': listRoute(
    'listSleep',
    'Sleep nights',
    'SleepRecord',
    7,
    365,
    'Nights of the window by wake-up date: sleep score, stage hours, and the HRV and heart rate of the night. The full night is at `/sleep/{date}`.'
  ),
  '/api/v1/users/{user_id}/sleep/{date}': {
    get: {
      tags: ['Data'],
      summary: 'One sleep night',
      description:
        'The night that ended on `date` (the wake-up day) with every stored field: local start and end with UTC ' +
        'offsets, stage and interruption seconds, continuity, sleep charge, group scores, heart-rate range, the ' +
        'hypnogram and the heart-rate samples. 404 when no night is stored for the date.',
      operationId: 'getSleepNight',
      security: apiKeySecurity,
      parameters: [userIdParam, dateParam],
      responses: { 200: jsonResponse('The night dated {date} (wake-up day)', ref('SleepNight')), ...dataRouteErrors() },
    },
  },
  '/api/v1/users/{user_id}/activity': listRoute(
    'listActivity',
    'Daily activity',
    'ActivityRecord',
    30,
    365,
    'Daily steps, calories, distance, active time and Polar’s activity score (% of the daily goal). The full day with samples is at `/activity/{date}`.'
  ),
  '/api/v1/users/{user_id}/activity/{date}': {
    get: {
      tags: ['Data'],
      summary: 'One activity day',
      description:
        'The activity day `date` in raw units with the step samples and activity-zone changes. 404 when no day ' +
        'is stored for the date.',
      operationId: 'getActivityDay',
      security: apiKeySecurity,
      parameters: [userIdParam, dateParam],
      responses: { 200: jsonResponse('The activity day {date}', ref('ActivityDay')), ...dataRouteErrors() },
    },
  },
  '/api/v1/users/{user_id}/recharge': listRoute(
    'listRecharge',
    'Nightly Recharge',
    'NightlyRechargeRecord',
    30,
    365,
    'Nightly Recharge per night: HRV (RMSSD), ANS charge and its label against the user’s usual, breathing rate and heart rate.'
  ),
  '/api/v1/users/{user_id}/exercises': listRoute(
    'listExercises',
    'Exercises',
    'ExerciseRecord',
    30,
    365,
    'Training sessions by local start time: sport, duration, distance, calories, heart rate and training load. `id` leads to the detail, samples, route and files.'
  ),
  '/api/v1/users/{user_id}/exercises/{id}': {
    get: {
      tags: ['Data'],
      summary: 'One exercise',
      description:
        'One training session by HRVault id (the `id` of the list) with device, detailed sport, heart-rate zones, ' +
        'running index, macronutrients and Training Load Pro. Samples, route and files are under the same path.',
      operationId: 'getExercise',
      security: apiKeySecurity,
      parameters: [userIdParam, exerciseIdParam],
      responses: { 200: jsonResponse('The exercise', ref('ExerciseDetail')), ...dataRouteErrors() },
    },
  },
  '/api/v1/users/{user_id}/cardio-load': listRoute(
    'listCardioLoad',
    'Cardio load',
    'CardioLoadRecord',
    30,
    365,
    'Polar cardio load per day: strain, tolerance, load, their ratio and Polar’s status label.'
  ),
  '/api/v1/users/{user_id}/heart-rate': listRoute(
    'listHeartRate',
    'Daily heart-rate summaries',
    'HeartRateSummary',
    30,
    365,
    'Minimum, mean and maximum of the continuous heart rate per day, with the number of samples; the samples themselves are at `/heart-rate/{date}/samples`.'
  ),
  '/api/v1/users/{user_id}/sleepwise/alertness': listRoute(
    'listSleepwiseAlertness',
    'SleepWise alertness periods',
    'SleepAlertnessRecord',
    7,
    30,
    'SleepWise alertness periods: how strongly the night’s sleep boosts alertness, graded per period.'
  ),
  '/api/v1/users/{user_id}/sleepwise/bedtime': listRoute(
    'listSleepwiseBedtime',
    'SleepWise bedtime recommendations',
    'BedtimeRecommendationRecord',
    7,
    30,
    'SleepWise bedtime recommendations: preferred sleep window and sleep gate per period, with their quality.'
  ),
  '/api/v1/users/{user_id}/spo2': listRoute(
    'listSpo2',
    'Blood-oxygen tests',
    'Spo2Record',
    30,
    365,
    'SpO2 tests by local test time: blood-oxygen %, class, heart rate, HRV and altitude.'
  ),
  '/api/v1/users/{user_id}/ecg': listRoute(
    'listEcg',
    'ECG tests',
    'EcgRecord',
    30,
    365,
    'ECG tests with heart rate, HRV and its level, pulse transit times, and the waveform and quality samples.'
  ),
  '/api/v1/users/{user_id}/temperature/body': listRoute(
    'listBodyTemperature',
    'Body-temperature periods',
    'BodyTemperatureRecord',
    30,
    365,
    'Body-temperature measurement periods with min/mean/max and the samples.'
  ),
  '/api/v1/users/{user_id}/temperature/skin': listRoute(
    'listSkinTemperature',
    'Nightly skin temperature',
    'SkinTemperatureRecord',
    30,
    365,
    'Skin temperature during each night and its deviation from the personal baseline.'
  ),
  '/api/v1/users/{user_id}/export/summary': {
    get: {
      tags: ['Export'],
      summary: 'Export summary',
      description:
        'How many records of the main types the window holds, with its first and last day: what an export of ' +
        'the same `days` (or `from`/`to` range) would contain; `days` counts the calendar days of a range too.',
      operationId: 'getExportSummary',
      security: apiKeySecurity,
      parameters: [userIdParam, ...windowParams(30, 365)],
      responses: { 200: jsonResponse('Record counts in the window', ref('ExportSummary')), ...dataRouteErrors() },
    },
  },
  '/api/v1/users/{user_id}/export/sleep.csv': csvRoute('exportSleepCsv', 'sleep'),
  '/api/v1/users/{user_id}/export/activity.csv': csvRoute('exportActivityCsv', 'activity'),
  '/api/v1/users/{user_id}/export/recharge.csv': csvRoute('exportRechargeCsv', 'recharge'),
  '/api/v1/users/{user_id}/export/cardio-load.csv': csvRoute('exportCardioLoadCsv', 'cardio-load'),
}
