import {
  dataRouteErrors,
  daysParam,
  jsonResponse,
  nullable,
  objectSchema,
  ref,
  userIdParam,
  type OpenApiModule,
} from '#openapi/components'

/** Surface A raw-data and export routes. */
export const tags = [{ name: 'Data', description: 'Synced raw data, newest first, exactly N calendar days.' }]

export const schemas = {
  SleepRecord: objectSchema({
    date: { type: 'string', format: 'date' },
    sleep_score: nullable('integer'),
    total_sleep_hours: nullable('number', { description: 'light + deep + REM, hours, 2 dp' }),
    deep_sleep_hours: nullable('number'),
    rem_sleep_hours: nullable('number'),
    light_sleep_hours: nullable('number'),
    hrv_avg: nullable('number', { description: 'RMSSD (ms) of the same night’s Nightly Recharge' }),
    heart_rate_avg: nullable('integer', { description: 'mean of the night’s heart-rate samples > 0' }),
  }),
}

const security = [{ apiKey: [] }]

export const paths: OpenApiModule['paths'] = {
  '/api/v1/users/{user_id}/sleep': {
    get: {
      tags: ['Data'],
      summary: 'Sleep nights',
      operationId: 'listSleep',
      security,
      parameters: [userIdParam, daysParam(7, 365)],
      responses: { 200: jsonResponse('Sleep records, newest first', { type: 'array', items: ref('SleepRecord') }), ...dataRouteErrors() },
    },
  },
}
