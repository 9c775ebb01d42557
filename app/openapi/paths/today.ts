import {
  apiKeySecurity,
  errorResponses,
  jsonResponse,
  nullable,
  objectSchema,
  ref,
  userIdParam,
  type JsonSchema,
  type OpenApiModule,
} from '#openapi/components'
import { METRIC_NAMES } from '#services/analytics/metrics'
import { OBSERVATION_CATEGORIES, OBSERVATION_PRIORITIES } from '#services/analytics/observations'
import { DATA_TYPE_KEYS } from '#services/records/data_types'

/** GET /users/{user_id}/today: the compact view (tag `Analytics`, declared in analytics.ts). */

const orNull = (schema: JsonSchema): JsonSchema => ({ oneOf: [schema, { type: 'null' }] })
const isoTimestamp = (description: string) => nullable('string', { format: 'date-time', description })

const todayBaseline = objectSchema({
  status: {
    type: 'string',
    enum: ['ready', 'partial', 'insufficient'],
    description: 'Baseline status; `insufficient` also when the metric has no value yet.',
  },
  current: nullable('number', { description: 'Latest value dated within 7 days.' }),
  baseline: nullable('number', { description: 'Mean of the 90-day window.' }),
  percent_of_baseline: nullable('number', { description: 'current / baseline · 100, 1 dp.' }),
  trend: nullable('string', { description: '7-day against 30-day mean, direction-aware (improving, declining, stable; increasing or decreasing for load).' }),
})

/** Newest dates of the example that differ from today (no ECG, SpO2 or body temperature device; the last run two days ago). */
const EXAMPLE_NEWEST: Partial<Record<(typeof DATA_TYPE_KEYS)[number], string | null>> = {
  exercises: '2026-03-29',
  exercise_samples: '2026-03-29',
  physical_info: '2026-01-12',
  ecg: null,
  spo2: null,
  body_temperature: null,
}

const example = {
  user_id: '12345678',
  date: '2026-03-31',
  generated_at: '2026-03-31T07:05:12.000Z',
  status: 'ready',
  sleep: {
    date: '2026-03-31',
    sleep_score: 69,
    total_sleep_hours: 6.42,
    deep_sleep_hours: 1.08,
    rem_sleep_hours: 1.25,
    light_sleep_hours: 4.09,
    hrv_avg: 30,
    heart_rate_avg: 58,
  },
  recharge: { date: '2026-03-31', hrv_avg: 30, ans_charge: -6.4, ans_charge_status: 'much_below_usual', breathing_rate_avg: 15.2, heart_rate_avg: 57 },
  activity: { date: '2026-03-31', steps: 4321, calories_active: 212, calories_total: 1320, distance_km: 3.11, active_minutes: 41.5, activity_score: 38 },
  current_metrics: { hrv: 30, sleep_score: 69, resting_hr: 57, training_load_ratio: 1.6 },
  baselines: {
    hrv_rmssd: { status: 'ready', current: 30, baseline: 48.2, percent_of_baseline: 62.2, trend: 'declining' },
    sleep_score: { status: 'ready', current: 69, baseline: 78.49, percent_of_baseline: 87.9, trend: 'declining' },
    resting_hr: { status: 'ready', current: 57, baseline: 51.18, percent_of_baseline: 111.4, trend: 'declining' },
    training_load: { status: 'ready', current: 180, baseline: 112.59, percent_of_baseline: 159.9, trend: 'increasing' },
    training_load_ratio: { status: 'ready', current: 1.6, baseline: 1.01, percent_of_baseline: 157.7, trend: 'increasing' },
  },
  anomalies: [
    {
      metric_name: 'hrv_rmssd',
      date: '2026-03-31',
      current_value: 30,
      baseline_value: 48.2,
      lower_bound: 44.83,
      upper_bound: 54.17,
      severity: 'critical',
      direction: 'below',
      deviation_percent: -37.8,
    },
  ],
  top_observation: {
    category: 'anomaly',
    priority: 'critical',
    fact: 'HRV is far below your normal range: 30 ms on 2026-03-31',
    context: 'Normal range 45–54 ms; 90-day baseline 48 ms (-37.8%).',
    trend: 'anomalous',
  },
  top_suggestion: {
    action: 'monitor_closely',
    description: 'Check how you feel today and re-measure tomorrow before any hard effort.',
    confidence: 0.9,
    reason: 'HRV is far below its normal range (30 ms on 2026-03-31)',
  },
  freshness: {
    last_synced_at: '2026-03-31T06:30:00Z',
    last_sync: { run_id: 412, status: 'success', started_at: '2026-03-31T06:29:40Z', finished_at: '2026-03-31T06:30:00Z' },
    newest_data_date: '2026-03-31',
    newest_data: Object.fromEntries(DATA_TYPE_KEYS.map((key) => [key, EXAMPLE_NEWEST[key] ?? '2026-03-31'])),
  },
}

export const schemas = {
  Today: {
    ...objectSchema({
      user_id: { type: 'string' },
      date: { type: 'string', format: 'date', description: 'Today in APP_TIMEZONE.' },
      generated_at: { type: 'string', format: 'date-time' },
      status: {
        type: 'string',
        enum: ['no_data', 'unavailable', 'partial', 'ready'],
        description:
          '`no_data`: nothing stored yet (a new user); otherwise the insights readiness by days with sleep or recharge data: `unavailable` below 7, `partial` 7–20, `ready` from 21.',
      },
      sleep: orNull(ref('SleepRecord')),
      recharge: orNull(ref('NightlyRechargeRecord')),
      activity: orNull(ref('ActivityRecord')),
      current_metrics: objectSchema(
        {
          hrv: nullable('number', { description: 'ms (RMSSD)' }),
          sleep_score: nullable('number'),
          resting_hr: nullable('number', { description: 'bpm' }),
          training_load_ratio: nullable('number'),
        },
        'Latest values dated within 7 days, as in /insights.'
      ),
      baselines: objectSchema(Object.fromEntries(METRIC_NAMES.map((metric) => [metric, todayBaseline])), 'Every metric, baseline or not.'),
      anomalies: { type: 'array', items: ref('Anomaly'), description: 'Active anomalies (latest values within 7 days outside the normal range).' },
      top_observation: orNull(
        objectSchema({
          category: { type: 'string', enum: [...OBSERVATION_CATEGORIES] },
          priority: { type: 'string', enum: [...OBSERVATION_PRIORITIES] },
          fact: { type: 'string' },
          context: { type: 'string' },
          trend: nullable('string'),
        })
      ),
      top_suggestion: orNull(
        objectSchema({
          action: { type: 'string' },
          description: { type: 'string' },
          confidence: { type: 'number', minimum: 0, maximum: 1 },
          reason: { type: 'string' },
        })
      ),
      freshness: objectSchema({
        last_synced_at: isoTimestamp('End of the last successful sync.'),
        last_sync: orNull(
          objectSchema({
            run_id: { type: 'integer' },
            status: { type: 'string' },
            started_at: { type: 'string', format: 'date-time' },
            finished_at: isoTimestamp('Null while the run is going on.'),
          })
        ),
        newest_data_date: nullable('string', { format: 'date', description: 'Newest date with data of any type.' }),
        newest_data: objectSchema(
          Object.fromEntries(DATA_TYPE_KEYS.map((key) => [key, nullable('string', { format: 'date' })])),
          'Newest date with data per type (null: none stored).'
        ),
      }),
    }),
    description: 'A compact view of today for a dashboard or a morning check.',
    example,
  },
}

export const paths: OpenApiModule['paths'] = {
  '/api/v1/users/{user_id}/today': {
    get: {
      tags: ['Analytics'],
      summary: 'Today at a glance',
      description:
        'One small answer for a dashboard: the night that ended today (its sleep and Nightly Recharge; null until it is synced), ' +
        'today’s activity so far, the current values against their baselines (every metric, with its baseline status), active ' +
        'anomalies, the first observation and suggestion of /insights, and how fresh the data is (last sync, newest date per ' +
        'data type). A user without data gets the same shape with nulls, empty lists and `status: no_data`. No query parameters.',
      operationId: 'getToday',
      security: apiKeySecurity,
      parameters: [userIdParam],
      responses: {
        200: { ...jsonResponse('The today view', ref('Today')), content: { 'application/json': { schema: ref('Today'), example } } },
        ...errorResponses(401, 403, 404, 422, 429),
      },
    },
  },
}
