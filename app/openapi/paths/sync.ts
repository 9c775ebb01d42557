import { SYNC_TYPE_KEYS } from '#services/sync/sync_types'
import {
  errorResponses,
  jsonResponse,
  objectSchema,
  rateLimitHeaders,
  ref,
  userIdParam,
  type OpenApiModule,
} from '#openapi/components'

/** Surface A sync trigger. */
export const tags = [{ name: 'Sync', description: 'Fetch the latest data from Polar now.' }]

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
    },
  },
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
      ],
      responses: {
        200: jsonResponse('Sync result', ref('SyncResult')),
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
