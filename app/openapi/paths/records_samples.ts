import {
  apiKeySecurity,
  dataRouteErrors,
  dateParam,
  jsonResponse,
  label,
  listPageHeaders,
  listPageParams,
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

/**
 * Routes of the finer-grained data kept beside the daily records: physical information
 * (with its history), per-minute activity samples and continuous heart-rate samples.
 */

/** A JSON 200 answer with an example body. */
const exampleResponse = (description: string, schema: JsonSchema, example: unknown) => {
  const response = jsonResponse(description, schema)
  return { ...response, content: { 'application/json': { schema, example } } }
}

const physicalInfoExample = {
  measured_at: '2026-02-10T12:00:00Z',
  date: '2026-02-10',
  weight_kg: 70.5,
  height_cm: 175,
  vo2_max: 50,
  max_heart_rate: 190,
  resting_heart_rate: 60,
  aerobic_threshold: 140,
  anaerobic_threshold: 170,
  sleep_goal: 'PT8H',
  sleep_goal_minutes: 480,
  weight_source: 'SOURCE_USER',
  training_background: 'REGULAR',
  typical_day: 'MOSTLY_MOVING',
  gender: 'MALE',
  birthday: '1990-01-01',
}

/** Minute counts of an example day: asleep until 07:00, then a walk of 42 steps a minute. */
const exampleMinutes = Array.from({ length: 1440 }, (_, minute) => (minute < 420 ? 0 : minute < 450 ? 42 : 0))

export const schemas = {
  PhysicalInfoRecord: objectSchema(
    {
      measured_at: {
        type: 'string',
        pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$',
        description: 'UTC time Polar stamped this version (`modified`, else `created`).',
      },
      date: { type: 'string', format: 'date', description: 'Local date of measured_at (the user’s UTC offset when known).' },
      weight_kg: nullable('number', { description: 'kg' }),
      height_cm: nullable('number', { description: 'cm' }),
      vo2_max: nullable('number', { description: 'ml/kg/min' }),
      max_heart_rate: nullable('integer', { description: 'bpm' }),
      resting_heart_rate: nullable('integer', { description: 'bpm' }),
      aerobic_threshold: nullable('integer', { description: 'bpm' }),
      anaerobic_threshold: nullable('integer', { description: 'bpm' }),
      sleep_goal: nullable('string', { description: 'ISO 8601 duration as Polar sent it, e.g. PT8H' }),
      sleep_goal_minutes: nullable('integer', { description: 'minutes' }),
      weight_source: label('SOURCE_DEFAULT, SOURCE_ESTIMATE, SOURCE_USER, SOURCE_MEASURED or SOURCE_KEEP'),
      training_background: label('OCCASIONAL, REGULAR, FREQUENT, HEAVY, SEMI_PRO or PRO'),
      typical_day: label('MOSTLY_SITTING, MOSTLY_STANDING or MOSTLY_MOVING'),
      gender: label('MALE or FEMALE'),
      birthday: nullable('string', { format: 'date' }),
    },
    'One version of the physical settings; a setting never made is null (never 0).'
  ),
  PhysicalInfo: objectSchema(
    {
      latest: { oneOf: [ref('PhysicalInfoRecord'), { type: 'null' }], description: 'The current settings; null before Polar sent any.' },
      history: { type: 'array', items: ref('PhysicalInfoRecord'), description: 'Every version kept, newest first (latest included).' },
    },
    'Physical information: the current settings and their history (one version per change).'
  ),
  ActivitySampleDay: objectSchema(
    {
      date: { type: 'string', format: 'date' },
      interval_ms: nullable('integer', { description: 'Polar’s step sample interval, ms (60 000)' }),
      total_steps: nullable('integer', { description: 'the day’s steps as Polar counted them' }),
      steps_per_minute: {
        type: ['array', 'null'],
        minItems: 1440,
        maxItems: 1440,
        items: nullable('integer'),
        description:
          'Steps in each minute of the day, index 0 = 00:00 … 1439 = 23:59 (local), expanded from Polar’s collapsed runs; null = not measured. Null when Polar sent no step samples.',
      },
      activity_zones: {
        type: ['array', 'null'],
        description: 'Activity-zone periods in time order; each lasts until the next one starts, the last until midnight.',
        items: objectSchema({
          start: localTime('Local start.'),
          end: localTime('Local end (start of the next zone, or midnight).'),
          zone: label('SLEEP, SEDENTARY, LIGHT, MODERATE or VIGOROUS'),
          duration_seconds: { type: 'integer', minimum: 0 },
        }),
      },
      inactivity_stamps: {
        type: ['array', 'null'],
        items: localTime('Local time of an inactivity alert.'),
        description: 'Inactivity alerts of the day.',
      },
    },
    'One day of activity samples in a chart-ready per-minute form.'
  ),
  HeartRateSamples: objectSchema(
    {
      date: { type: 'string', format: 'date' },
      sample_count: { type: 'integer', minimum: 0, description: 'samples returned' },
      samples: {
        type: 'array',
        description: 'Continuous heart rate in time order (device-local times); Polar’s 0/null placeholders are left out, training sessions are not included.',
        items: objectSchema({ time: localTime('Local time of the sample.'), bpm: { type: 'integer', minimum: 1 } }),
      },
    },
    'One day of continuous heart-rate samples.'
  ),
}

const activityDayExample = {
  date: '2026-03-01',
  interval_ms: 60000,
  total_steps: 1260,
  steps_per_minute: exampleMinutes,
  activity_zones: [
    { start: '2026-03-01 00:00:00', end: '2026-03-01 06:58:30', zone: 'SLEEP', duration_seconds: 25110 },
    { start: '2026-03-01 06:58:30', end: '2026-03-01 07:30:00', zone: 'LIGHT', duration_seconds: 1890 },
    { start: '2026-03-01 07:30:00', end: '2026-03-02 00:00:00', zone: 'SEDENTARY', duration_seconds: 59400 },
  ],
  inactivity_stamps: ['2026-03-01 16:04:00'],
}

export const paths: OpenApiModule['paths'] = {
  '/api/v1/users/{user_id}/physical-info': {
    get: {
      tags: ['Data'],
      summary: 'Physical information and its history',
      description:
        'The current weight, height, heart-rate settings, VO2max and sleep goal, and every version HRVault has kept (a sync stores a new version whenever Polar’s `modified` changes). Not windowed: there is no `days`.',
      operationId: 'getPhysicalInfo',
      security: apiKeySecurity,
      parameters: [userIdParam],
      responses: {
        200: exampleResponse('Latest settings and history, newest first', ref('PhysicalInfo'), {
          latest: physicalInfoExample,
          history: [physicalInfoExample, { ...physicalInfoExample, measured_at: '2025-11-02T08:30:00Z', date: '2025-11-02', weight_kg: 72.1, vo2_max: 48 }],
        }),
        ...dataRouteErrors(),
      },
    },
  },
  '/api/v1/users/{user_id}/activity-samples': {
    get: {
      tags: ['Data'],
      summary: 'Activity samples',
      description:
        'Days with samples among exactly `days` calendar days ending today (APP_TIMEZONE), or an inclusive `from`/`to` range, newest first. A day holds 1 440 minutes: page long ranges with `limit`.',
      operationId: 'listActivitySamples',
      security: apiKeySecurity,
      parameters: [userIdParam, ...windowParams(7, 30), ...listPageParams],
      responses: {
        200: {
          ...exampleResponse('Activity samples, newest first', { type: 'array', items: ref('ActivitySampleDay') }, [activityDayExample]),
          headers: { ...rateLimitHeaders, ...listPageHeaders },
        },
        ...dataRouteErrors(),
      },
    },
  },
  '/api/v1/users/{user_id}/activity-samples/{date}': {
    get: {
      tags: ['Data'],
      summary: 'One day of activity samples',
      description:
        'The steps of every minute of the local day (`steps_per_minute[i]` is minute i from 00:00; null before ' +
        'the first sample), the activity-zone periods and the inactivity alerts. 404 when no samples are stored ' +
        'for the date.',
      operationId: 'getActivitySamples',
      security: apiKeySecurity,
      parameters: [userIdParam, dateParam],
      responses: {
        200: exampleResponse('The samples of {date}', ref('ActivitySampleDay'), activityDayExample),
        ...dataRouteErrors(),
      },
    },
  },
  '/api/v1/users/{user_id}/heart-rate/{date}/samples': {
    get: {
      tags: ['Data'],
      summary: 'One day of continuous heart rate',
      description:
        'Every stored continuous heart-rate sample of the day as local `time` and `bpm`, oldest first; Polar’s ' +
        '0/null placeholders are left out, so `sample_count` equals the daily summary’s. Training sessions are ' +
        'not in this series. 404 when the day is not stored.',
      operationId: 'getHeartRateSamples',
      security: apiKeySecurity,
      parameters: [userIdParam, dateParam],
      responses: {
        200: exampleResponse('The samples of {date}', ref('HeartRateSamples'), {
          date: '2026-03-01',
          sample_count: 3,
          samples: [
            { time: '2026-03-01 00:02:08', bpm: 63 },
            { time: '2026-03-01 00:07:08', bpm: 62 },
            { time: '2026-03-01 00:12:08', bpm: 60 },
          ],
        }),
        ...dataRouteErrors(),
      },
    },
  },
}
