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
import { METRIC_NAMES, PATTERN_NAMES } from '#services/analytics/metrics'
import { OBSERVATION_CATEGORIES, OBSERVATION_PRIORITIES } from '#services/analytics/observations'
import { INSIGHT_FEATURES, STATUS_FEATURES } from '#services/analytics/feature_unlocks'

/** Analytics routes: baselines, anomalies, patterns, analytics status, insights. */
export const tags = [
  {
    name: 'Analytics',
    description:
      'Baselines over the 90 calendar days ending today (APP_TIMEZONE), IQR anomalies, patterns, readiness and insights. Recomputed after every sync that stores data.',
  },
]

const num = { type: 'number' }
const isoTimestamp = { type: 'string', format: 'date-time', description: 'ISO 8601 UTC' }
const significance = { type: 'string', enum: ['high', 'medium', 'low', 'insufficient'] }
const baselineStatus = { type: 'string', enum: ['ready', 'partial', 'insufficient'] }
const severity = { type: 'string', enum: ['warning', 'critical'] }
const stringArray = { type: 'array', items: { type: 'string' } }
const booleanMap = (keys: readonly string[]) => objectSchema(Object.fromEntries(keys.map((k) => [k, { type: 'boolean' }])))

const metricParam = {
  name: 'metric_name',
  in: 'path',
  required: true,
  description: `One of ${METRIC_NAMES.join(', ')}; any other name is a 404 whose body lists the valid names.`,
  schema: { type: 'string', examples: ['hrv_rmssd'] },
}
const patternParam = {
  name: 'pattern_name',
  in: 'path',
  required: true,
  description: `One of ${PATTERN_NAMES.join(', ')}; any other name is a 404 whose body lists the valid names.`,
  schema: { type: 'string', examples: ['sleep_hrv_correlation'] },
}
const valueParam = {
  name: 'value',
  in: 'path',
  required: true,
  description: 'The value to check, a finite number (Infinity, NaN or non-numbers are a 422).',
  schema: { type: 'number' },
}

const unlockEntry = objectSchema({
  unlocked: { type: 'boolean' },
  days_required: { type: 'integer' },
  days_remaining: { type: 'integer' },
  progress_percent: { type: 'number', description: 'days / days_required · 100, 1 dp, capped at 100' },
})

const anomaly: JsonSchema = objectSchema({
  metric_name: { type: 'string', enum: [...METRIC_NAMES] },
  date: { type: 'string', format: 'date', description: 'Date of the value (within the last 7 days)' },
  current_value: num,
  baseline_value: { type: 'number', description: 'Mean of the 90-day window' },
  lower_bound: { type: 'number', description: 'q1 − 1.5·IQR' },
  upper_bound: { type: 'number', description: 'q3 + 1.5·IQR' },
  severity: { ...severity, description: 'critical outside q1 − 3·IQR … q3 + 3·IQR (strict)' },
  direction: { type: 'string', enum: ['below', 'above'] },
  deviation_percent: nullable('number', { description: '(current − baseline)/baseline·100, 1 dp; null for a zero baseline' }),
})

export const schemas = {
  Baseline: objectSchema(
    {
      metric_name: { type: 'string', enum: [...METRIC_NAMES] },
      baseline_value: { type: 'number', description: 'Mean of the 90 calendar days ending today' },
      baseline_7d: nullable('number', { description: 'Mean of the last 7 days; null below 3 values' }),
      baseline_30d: nullable('number', { description: 'Mean of the last 30 days; null below 15 values' }),
      baseline_90d: nullable('number', { description: 'Mean of the last 90 days; null below 45 values' }),
      median: num,
      q1: nullable('number', { description: 'Type 7 quartile; null while insufficient' }),
      q3: nullable('number', { description: 'Type 7 quartile; null while insufficient' }),
      iqr: nullable('number'),
      std_dev: nullable('number', { description: 'Sample SD (n − 1); null while insufficient' }),
      min: num,
      max: num,
      lower_bound: nullable('number'),
      upper_bound: nullable('number'),
      sample_count: { type: 'integer', description: 'Days with a value in the window' },
      status: { ...baselineStatus, description: 'ready ≥ 21 days, partial 7–20, insufficient < 7' },
      data_start_date: { type: 'string', format: 'date' },
      data_end_date: { type: 'string', format: 'date' },
      calculated_at: isoTimestamp,
    },
    'A personal baseline of one metric.'
  ),
  BaselineCalculation: objectSchema({
    user_id: { type: 'string' },
    baselines_calculated: {
      type: 'object',
      description: 'Metric name → status, for every metric with a value in the window',
      additionalProperties: baselineStatus,
    },
  }),
  AnomalyCheck: objectSchema({
    value: num,
    metric_name: { type: 'string', enum: [...METRIC_NAMES] },
    is_anomaly: { type: 'boolean' },
    severity: { type: ['string', 'null'], enum: ['warning', 'critical', null] },
    baseline: num,
    baseline_7d: nullable('number'),
    lower_bound: nullable('number'),
    upper_bound: nullable('number'),
    status: baselineStatus,
  }),
  Anomaly: anomaly,
  AnomalyScan: objectSchema({
    user_id: { type: 'string' },
    anomaly_count: { type: 'integer' },
    anomalies: { type: 'array', items: ref('Anomaly') },
  }),
  Pattern: objectSchema(
    {
      pattern_type: { type: 'string', enum: ['correlation', 'trend', 'composite'] },
      pattern_name: { type: 'string', enum: [...PATTERN_NAMES] },
      score: nullable('number', {
        description: 'Spearman ρ (correlation), % change 7d vs 30d (trend), 0–100 (overtraining_risk); null when insufficient',
      }),
      confidence: { type: 'number', minimum: 0, maximum: 1 },
      significance: { ...significance, description: 'high p < 0.01, medium p < 0.05, low otherwise' },
      metrics_involved: { type: 'array', items: { type: 'string', enum: [...METRIC_NAMES] } },
      sample_count: { type: 'integer' },
      details: {
        type: 'object',
        description:
          'Always has p_value (null when not applicable). Correlation: correlation_coefficient, interpretation, strength, direction. Trend: change_percent, mean_7d, mean_30d, direction, interpretation. Composite: risk_score, risk_factors, recommendations, factors_checked.',
        required: ['p_value'],
        properties: {
          p_value: nullable('number'),
          correlation_coefficient: nullable('number'),
          strength: nullable('string', { description: 'Correlation strength in words (weak, moderate, strong …).' }),
          interpretation: nullable('string'),
          direction: nullable('string'),
          change_percent: nullable('number', { description: 'Trend: 7-day mean against the 30-day mean, %.' }),
          mean_7d: nullable('number'),
          mean_30d: nullable('number'),
          values_7d: { type: 'integer', description: 'Trend: days with a value among the last 7.' },
          values_30d: { type: 'integer', description: 'Trend: days with a value among the last 30.' },
          t_statistic: nullable('number', { description: 'Trend: Welch’s t.' }),
          degrees_of_freedom: nullable('number', { description: 'Trend: Welch–Satterthwaite degrees of freedom.' }),
          reason: { type: 'string', description: 'Why the pattern could not be computed (insufficient data).' },
          risk_score: { type: 'number', description: 'Composite: 0–100.' },
          risk_factors: stringArray,
          recommendations: stringArray,
          factors_checked: { type: 'integer' },
          factor_values: {
            type: 'object',
            description: 'Composite: each factor’s value (`<metric>_change_percent`, `training_load_ratio`), null without data.',
            additionalProperties: nullable('number'),
          },
        },
      },
      analyzed_at: isoTimestamp,
    },
    'A detected pattern.'
  ),
  PatternDetection: objectSchema({
    user_id: { type: 'string' },
    patterns_detected: { type: 'object', additionalProperties: significance },
  }),
  AnalyticsStatus: objectSchema({
    user_id: { type: 'string' },
    data_days: objectSchema({
      sleep: { type: 'integer' },
      recharge: { type: 'integer' },
      activity: { type: 'integer' },
      cardio_load: { type: 'integer' },
    }),
    min_data_days: { type: 'integer', description: 'Minimum over the sources that have any data; 0 when none' },
    features_available: booleanMap(STATUS_FEATURES.map((f) => f.key)),
    unlock_progress: objectSchema(Object.fromEntries(STATUS_FEATURES.map((f) => [f.key, unlockEntry]))),
    recommendations: stringArray,
  }),
  Insights: {
    type: 'object',
    description: 'The unified insights record.',
    required: [
      'user_id',
      'generated_at',
      'data_age_days',
      'status',
      'feature_availability',
      'unlock_progress',
      'current_metrics',
      'baselines',
      'patterns',
      'anomalies',
      'observations',
      'suggestions',
    ],
    properties: {
      user_id: { type: 'string' },
      generated_at: isoTimestamp,
      data_freshness: { ...isoTimestamp, description: 'Start of the latest day with sleep or recharge data; absent without data' },
      data_age_days: { type: 'integer', description: 'Distinct days with sleep or recharge data' },
      status: { type: 'string', enum: ['ready', 'partial', 'unavailable'] },
      feature_availability: objectSchema(
        Object.fromEntries(
          ['baselines_7d', 'baselines_30d', 'patterns', 'anomaly_detection', 'ml_predictions'].map((k) => [
            k,
            {
              type: 'object',
              required: ['available', 'message'],
              properties: {
                available: { type: 'boolean' },
                message: nullable('string', { description: '"Unlocks in N days" while locked' }),
                unlock_at_days: { type: 'integer' },
              },
            },
          ])
        )
      ),
      unlock_progress: objectSchema({
        next_unlock: { type: ['string', 'null'], enum: [...INSIGHT_FEATURES.map((f) => f.key), null] },
        days_until_next: { type: 'integer' },
        percent_to_next: { type: 'number', description: 'data age / next unlock day · 100, 1 dp; 100 when all unlocked' },
      }),
      current_metrics: objectSchema({
        hrv: nullable('number'),
        sleep_score: nullable('number'),
        resting_hr: nullable('number'),
        training_load_ratio: nullable('number'),
      }),
      baselines: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          required: ['current', 'baseline', 'percent_of_baseline', 'trend', 'status'],
          properties: {
            current: nullable('number'),
            baseline: num,
            percent_of_baseline: nullable('number'),
            trend: nullable('string', {
              description: 'improving / declining / stable (direction-aware); increasing / decreasing / stable for load',
            }),
            status: baselineStatus,
            baseline_7d: nullable('number'),
            baseline_30d: nullable('number'),
          },
        },
      },
      patterns: {
        type: 'array',
        items: objectSchema({
          name: { type: 'string', enum: [...PATTERN_NAMES] },
          pattern_type: { type: 'string' },
          score: nullable('number'),
          significance,
          factors: stringArray,
          interpretation: nullable('string'),
        }),
      },
      anomalies: { type: 'array', items: ref('Anomaly') },
      observations: {
        type: 'array',
        items: objectSchema({
          category: { type: 'string', enum: [...OBSERVATION_CATEGORIES] },
          priority: { type: 'string', enum: [...OBSERVATION_PRIORITIES] },
          fact: { type: 'string' },
          context: { type: 'string' },
          trend: nullable('string'),
        }),
      },
      suggestions: {
        type: 'array',
        items: objectSchema({
          action: { type: 'string' },
          description: { type: 'string' },
          confidence: { type: 'number', minimum: 0, maximum: 1 },
          reason: { type: 'string' },
        }),
      },
    },
  },
}

const op = (
  summary: string,
  description: string,
  operationId: string,
  parameters: unknown[],
  response: unknown,
  errors: number[]
) => ({
  tags: ['Analytics'],
  summary,
  description,
  operationId,
  security: apiKeySecurity,
  parameters,
  responses: { 200: response, ...errorResponses(...errors) },
})

const AUTH_ERRORS = [401, 403, 404, 422, 429]

export const paths: OpenApiModule['paths'] = {
  '/api/v1/users/{user_id}/baselines': {
    get: op(
      'Stored baselines',
      'Every metric’s baseline as stored after the last sync that brought data: mean, median, type 7 quartiles, ' +
        'IQR, sample SD, min/max and the 1.5·IQR bounds over the 90 calendar days ending today, plus the 7/30/90-day ' +
        'means. `status` is `ready` from 21 days with a value, `partial` from 7, else `insufficient` (quartiles, ' +
        'bounds and SD null). An empty array before the first sync.',
      'listBaselines',
      [userIdParam],
      jsonResponse('Baselines in metric order', { type: 'array', items: ref('Baseline') }),
      AUTH_ERRORS
    ),
  },
  '/api/v1/users/{user_id}/baselines/calculate': {
    post: op(
      'Recalculate baselines',
      'Recomputes and stores every metric’s baseline from the stored data now (a sync does this on its own) and ' +
        'answers each metric’s status. No body.',
      'calculateBaselines',
      [userIdParam],
      jsonResponse('Metric → status', ref('BaselineCalculation')),
      AUTH_ERRORS
    ),
  },
  '/api/v1/users/{user_id}/baselines/{metric_name}': {
    get: op(
      'One baseline',
      'The stored baseline of one metric. An unknown metric name is a 404 problem whose `valid_names` lists the ' +
        'metrics; a known metric without a stored baseline is a 404 too.',
      'getBaseline',
      [userIdParam, metricParam],
      jsonResponse('The baseline', ref('Baseline')),
      AUTH_ERRORS
    ),
  },
  '/api/v1/users/{user_id}/baselines/check/{metric_name}/{value}': {
    get: op(
      'Check a value against a baseline',
      'Whether `value` would be an anomaly for the metric: `warning` outside the 1.5·IQR fences, `critical` ' +
        'outside the 3·IQR fences (strict inequalities), never against an `insufficient` baseline. Nothing is ' +
        'stored.',
      'checkBaseline',
      [userIdParam, metricParam, valueParam],
      jsonResponse('Check result', ref('AnomalyCheck')),
      AUTH_ERRORS
    ),
  },
  '/api/v1/users/{user_id}/anomalies': {
    get: op(
      'Scan recent values for anomalies',
      'Each metric’s latest value from the last 7 days checked against its stored baseline, critical first; ' +
        'each item carries the value’s `date`.',
      'scanAnomalies',
      [userIdParam],
      jsonResponse('Anomalies, critical first', ref('AnomalyScan')),
      AUTH_ERRORS
    ),
  },
  '/api/v1/users/{user_id}/analytics/status': {
    get: op(
      'Analytics readiness',
      'Days with data per source over all history and, for each of the six analytics features, whether it is ' +
        'unlocked and how many days are still missing. `min_data_days` ignores sources without data.',
      'getAnalyticsStatus',
      [userIdParam],
      jsonResponse('Status', ref('AnalyticsStatus')),
      AUTH_ERRORS
    ),
  },
  '/api/v1/users/{user_id}/patterns': {
    get: op(
      'Stored patterns',
      'The stored patterns (sleep–HRV correlation, HRV and sleep trends, overtraining risk) with score, ' +
        'significance (high p < 0.01, medium p < 0.05, low otherwise, `insufficient` when data is short) and ' +
        'details. An empty array before the first sync.',
      'listPatterns',
      [userIdParam],
      jsonResponse('Patterns in name order', { type: 'array', items: ref('Pattern') }),
      AUTH_ERRORS
    ),
  },
  '/api/v1/users/{user_id}/patterns/detect': {
    post: op(
      'Detect patterns',
      'Recomputes and stores every pattern from the last 90 days now (a sync does this on its own) and answers ' +
        'each pattern’s significance. No body.',
      'detectPatterns',
      [userIdParam],
      jsonResponse('Pattern → significance', ref('PatternDetection')),
      AUTH_ERRORS
    ),
  },
  '/api/v1/users/{user_id}/patterns/{pattern_name}': {
    get: op(
      'One pattern',
      'One stored pattern. An unknown pattern name is a 404 problem whose `valid_names` lists the patterns.',
      'getPattern',
      [userIdParam, patternParam],
      jsonResponse('The pattern', ref('Pattern')),
      AUTH_ERRORS
    ),
  },
  '/api/v1/users/{user_id}/insights': {
    get: op(
      'Unified insights',
      'Everything in one answer: readiness by days with sleep or recharge data (`unavailable` below 7, `partial` ' +
        '7–20, `ready` from 21), feature availability, current metrics against their baselines, patterns, ' +
        'anomalies, plain-language observations and suggestions that quote the numbers they come from.',
      'getInsights',
      [userIdParam],
      jsonResponse('Insights', ref('Insights')),
      AUTH_ERRORS
    ),
  },
}
