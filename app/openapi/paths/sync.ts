import { SYNC_TYPE_KEYS } from '#services/sync/sync_types'
import {
  errorResponses,
  jsonResponse,
  linkHeader,
  paginationParams,
  objectSchema,
  rateLimitHeaders,
  nullable,
  ref,
  userIdParam,
  type OpenApiModule,
} from '#openapi/components'

/** Sync trigger and sync runs. */
export const tags = [{ name: 'Sync', description: 'Fetch the latest data from Polar now, and follow past and running syncs.' }]

const retryAfterHeader = {
  'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'Seconds until a new attempt can succeed.' },
}

/** A problem+json response of this route with its own description (and headers). */
const problemResponse = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/problem+json': { schema: ref('Problem') } },
})

export const schemas = {
  SyncResult: {
    type: 'object',
    description:
      'Result of one sync. `partial`: some data types failed (their reasons in `errors`); the others were stored.',
    required: ['status', 'user_id', 'results'],
    properties: {
      status: { type: 'string', enum: ['success', 'partial'] },
      user_id: { type: 'string' },
      results: objectSchema(
        Object.fromEntries(SYNC_TYPE_KEYS.map((key) => [key, { type: 'integer', minimum: 0 }])),
        'Records per data type in the window (the 11 spec keys plus continuous heart-rate days).'
      ),
      errors: {
        type: 'object',
        description: 'Data type → the provider’s reason, only when `status` is `partial`.',
        additionalProperties: { type: 'string' },
      },
      run_id: { type: 'integer', minimum: 1, description: 'This sync’s run, at `/api/v1/users/{user_id}/sync/runs/{run_id}`.' },
      duration_ms: { type: 'integer', minimum: 0, description: 'Wall time of the sync in milliseconds.' },
    },
    example: {
      status: 'success',
      user_id: '12345678',
      results: Object.fromEntries(SYNC_TYPE_KEYS.map((key) => [key, key === 'sleepwise_alertness' ? 168 : 7])),
      run_id: 42,
      duration_ms: 1830,
    },
  },
  SyncRun: {
    type: 'object',
    description:
      'One sync of one user. `status`: `queued` (waiting on the queue), `running`, `success`, `partial` (some ' +
      'types failed, see `errors`), `failed`, `rate_limited` (Polar’s limit or HRVault’s share of it stopped the ' +
      'run; what was fetched before is stored), `interrupted` (the process died), `skipped` (a queued sync that ' +
      'could not start, see `errors.sync`).',
    required: [
      'run_id',
      'user_id',
      'trigger',
      'status',
      'days',
      'started_at',
      'finished_at',
      'duration_ms',
      'results',
      'errors',
      'provider_calls',
      'rate_limit',
      'progress',
    ],
    properties: {
      run_id: { type: 'integer', minimum: 1 },
      user_id: { type: 'string' },
      trigger: {
        type: 'string',
        enum: ['api', 'scheduler', 'connect', 'command', 'admin', 'demo'],
        description: 'Who started it: the API trigger, the background schedule, a new connection’s back-fill, `node ace sync`, the admin UI, the demo.',
      },
      status: {
        type: 'string',
        enum: ['queued', 'running', 'success', 'partial', 'failed', 'rate_limited', 'interrupted', 'skipped'],
      },
      days: { type: 'integer', minimum: 1, description: 'Calendar days of the window synced.' },
      started_at: { type: 'string', format: 'date-time', description: 'When it started (when it was queued, while `queued`).' },
      finished_at: nullable('string', { format: 'date-time' }),
      duration_ms: nullable('integer', { minimum: 0, description: 'finished_at − started_at; null until finished.' }),
      results: {
        type: ['object', 'null'],
        description: 'Records per data type in the window; null until finished.',
        additionalProperties: { type: 'integer', minimum: 0 },
      },
      errors: {
        type: 'object',
        description: 'Data type → reason, for each type that failed (empty when none).',
        additionalProperties: { type: 'string' },
      },
      provider_calls: { type: 'integer', minimum: 0, description: 'HTTP requests sent to Polar, retries included.' },
      rate_limit: {
        type: ['object', 'null'],
        description: 'Polar’s last `RateLimit-*` headers seen by the run, one value per window (15 minutes, 24 hours).',
        required: ['usage', 'limit', 'reset', 'observed_at'],
        properties: {
          usage: { type: 'array', items: { type: 'integer' } },
          limit: { type: 'array', items: { type: 'integer' } },
          reset: { type: 'array', items: { type: 'integer' }, description: 'Seconds until each window resets.' },
          observed_at: { type: 'string', format: 'date-time' },
        },
      },
      progress: {
        type: ['object', 'null'],
        description:
          'Data types done of the total; while running, `current` is the type being worked on and `phase` what ' +
          'the run does: `listing` (reading the type from Polar), `details` (one call per new item, counted in ' +
          '`details`), `storing`, `analytics` (baselines and patterns, after the types). Both are null once finished.',
        required: ['done', 'total', 'current'],
        properties: {
          done: { type: 'integer', minimum: 0 },
          total: { type: 'integer', minimum: 0 },
          current: nullable('string'),
          phase: { type: ['string', 'null'], enum: ['listing', 'details', 'storing', 'analytics', null] },
          details: {
            type: ['object', 'null'],
            required: ['done', 'total'],
            properties: { done: { type: 'integer', minimum: 0 }, total: { type: 'integer', minimum: 0 } },
          },
        },
      },
    },
    example: {
      run_id: 42,
      user_id: '12345678',
      trigger: 'api',
      status: 'success',
      days: 28,
      started_at: '2026-03-15T06:00:01Z',
      finished_at: '2026-03-15T06:00:03Z',
      duration_ms: 2000,
      results: Object.fromEntries(SYNC_TYPE_KEYS.map((key) => [key, key === 'sleepwise_alertness' ? 672 : 28])),
      errors: {},
      provider_calls: 24,
      rate_limit: { usage: [24, 24], limit: [1300, 15000], reset: [874, 64774], observed_at: '2026-03-15T06:00:03Z' },
      progress: { done: SYNC_TYPE_KEYS.length, total: SYNC_TYPE_KEYS.length, current: null, phase: null, details: null },
    },
  },
}

const runIdParam = {
  name: 'run_id',
  in: 'path',
  required: true,
  description: 'A run id (`run_id` of the trigger’s answer or of the run list).',
  schema: { type: 'integer', minimum: 1 },
  example: 42,
}

export const paths: OpenApiModule['paths'] = {
  '/api/v1/users/{user_id}/sync/trigger': {
    post: {
      tags: ['Sync'],
      summary: 'Sync a user now',
      description:
        'Fetches every data type from Polar AccessLink for the last `days` calendar days and stores it ' +
        'idempotently (a re-sync never duplicates). Creates the user on first sight. One sync per user ' +
        'at a time (409). 502 when every type failed (reason per type in `provider_errors`); 503 with ' +
        '`Retry-After` when Polar rate-limits. Manual syncs of one user are at least ' +
        'SYNC_TRIGGER_COOLDOWN_SECONDS apart (429), and are refused (503) while the share of Polar’s ' +
        'budget reserved for background sync is being used.',
      operationId: 'triggerSync',
      security: [{ apiKey: [] }],
      parameters: [
        userIdParam,
        {
          name: 'X-Provider-Token',
          in: 'header',
          required: true,
          description: 'The user’s Polar AccessLink access token (missing → 400).',
          schema: { type: 'string' },
        },
        {
          name: 'days',
          in: 'query',
          required: false,
          description:
            'Calendar days ending today, 1–365 (default SYNC_DAYS, 28). A user-scoped API key may ask for ' +
            'at most SYNC_DAYS (422 above); service keys for up to 365.',
          schema: { type: 'integer', minimum: 1, maximum: 365 },
        },
        {
          name: 'wait',
          in: 'query',
          required: false,
          description:
            '`false`: do not hold the connection open. The same checks run, then the sync is queued and the answer is ' +
            '202 with the queued run and its URL in `Location`; poll it until `finished_at` is set. Default `true` ' +
            '(answer when the sync is done).',
          schema: { type: 'boolean', default: true },
          example: false,
        },
      ],
      responses: {
        200: jsonResponse('Sync result', ref('SyncResult')),
        202: jsonResponse('`wait=false`: the sync is queued; the body is its run (status `queued`).', ref('SyncRun'), {
          ...rateLimitHeaders,
          Location: {
            schema: { type: 'string' },
            description: 'The run to poll.',
            example: '/api/v1/users/12345678/sync/runs/42',
          },
        } as typeof rateLimitHeaders),
        ...errorResponses(400, 401, 403, 502),
        409: problemResponse(
          '`E_SYNC_IN_PROGRESS`: a sync of this user is already running (in any process). ' +
            '`E_PROVIDER_ACCOUNT_MISMATCH`: the token belongs to a different Polar account than the one ' +
            'this user is bound to; nothing was written.'
        ),
        422: problemResponse(
          '`E_VALIDATION_ERROR`: a parameter is out of range or malformed; `errors` names it. With a ' +
            'user-scoped API key, `days` above SYNC_DAYS (default 28) is refused with rule `max` and the ' +
            'allowed maximum in the message; nothing is synced.'
        ),
        429: problemResponse(
          '`E_TOO_MANY_REQUESTS`: the API key’s request budget is spent. `E_SYNC_COOLDOWN`: this user ' +
            'was synced manually (API trigger or admin Sync now) less than SYNC_TRIGGER_COOLDOWN_SECONDS ' +
            '(default 60) ago, whatever the key; `Retry-After` is the time left.',
          { ...retryAfterHeader, ...rateLimitHeaders }
        ),
        503: problemResponse(
          '`E_PROVIDER_RATE_LIMITED`: Polar rate-limited this sync (types stored before are kept, in ' +
            '`results`). `E_PROVIDER_BUDGET_RESERVED`: Polar reports POLAR_MANUAL_BUDGET_PERCENT (default ' +
            '80) or more of a rate-limit window used; the rest is kept for background sync, and nothing is ' +
            'fetched until the window resets (`Retry-After`). `E_DATABASE_UNAVAILABLE`: the database does ' +
            'not answer.',
          retryAfterHeader
        ),
      },
    },
  },
}

paths['/api/v1/users/{user_id}/sync/runs'] = {
  get: {
    tags: ['Sync'],
    summary: 'List a user’s sync runs',
    description:
      'Every sync of the user (API trigger, background schedule, back-fill, CLI, admin), newest first, as a JSON ' +
      'array. Paginated with `limit` (default 50) and the `cursor` of the `Link: rel="next"` header; no Link ' +
      'header on the last page.',
    operationId: 'listSyncRuns',
    // Runs change while a sync runs: never answered from the read cache.
    'x-read-cache': false,
    security: [{ apiKey: [] }],
    parameters: [userIdParam, ...paginationParams(50)],
    responses: {
      200: {
        ...jsonResponse('Sync runs, newest first', { type: 'array', items: ref('SyncRun') }, {
          ...rateLimitHeaders,
          ...linkHeader,
        } as typeof rateLimitHeaders),
      },
      ...errorResponses(401, 403, 404, 422, 429),
    },
  },
}

paths['/api/v1/users/{user_id}/sync/runs/{run_id}'] = {
  get: {
    tags: ['Sync'],
    summary: 'One sync run',
    description:
      'A run of the user: trigger, start and end, status, records and errors per data type, calls sent to Polar ' +
      'and Polar’s rate-limit state. Poll the `Location` of a `wait=false` trigger here until `finished_at` is ' +
      'set. Another user’s run or an unknown id is a 404.',
    operationId: 'getSyncRun',
    'x-read-cache': false,
    security: [{ apiKey: [] }],
    parameters: [userIdParam, runIdParam],
    responses: {
      200: jsonResponse('The run', ref('SyncRun')),
      ...errorResponses(401, 403, 404, 422, 429),
    },
  },
}
