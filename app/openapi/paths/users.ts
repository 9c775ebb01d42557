import {
  apiKeySecurity,
  errorResponses,
  jsonResponse,
  linkHeader,
  nullable,
  paginationParams,
  rateLimitHeaders,
  ref,
  userIdParam,
  type OpenApiModule,
} from '#openapi/components'
import { DATA_TYPE_KEYS } from '#services/records/data_types'

/** Discovery: the users an API key may see (the `Users` tag is declared with the erasure in takeout.ts). */

const exampleDays = Object.fromEntries(DATA_TYPE_KEYS.map((key) => [key, key === 'exercises' ? 212 : 1095]))

export const schemas = {
  UserSummary: {
    type: 'object',
    description:
      'A user: how HRVault reaches their Polar data, the span of stored data, days with data per type and the ' +
      'latest sync. Never a token or a Polar id.',
    required: [
      'user_id',
      'display_name',
      'active',
      'connection',
      'polar_account_bound',
      'connected_at',
      'created_at',
      'first_data_date',
      'last_data_date',
      'data_days',
      'last_successful_sync_at',
      'last_sync',
    ],
    properties: {
      user_id: { type: 'string' },
      display_name: nullable('string', {
        maxLength: 80,
        description: 'The name given to the user in the admin UI (at most 80 characters), null when none.',
      }),
      active: { type: 'boolean', description: 'False when the user is deactivated (no background sync).' },
      connection: {
        type: 'string',
        enum: ['oauth', 'token', 'none'],
        description:
          '`oauth`: connected through the Polar OAuth flow (admin UI or `node ace polar:auth`); `token`: a token ' +
          'kept from a sync trigger’s `X-Provider-Token`; `none`: no stored token (only a trigger with the header ' +
          'syncs). With `oauth` and `token` the background sync runs.',
      },
      polar_account_bound: { type: 'boolean', description: 'True once a sync confirmed the Polar account the data comes from.' },
      connected_at: nullable('string', { format: 'date-time', description: 'When the OAuth connection was made.' }),
      created_at: { type: 'string', format: 'date-time' },
      first_data_date: nullable('string', { format: 'date', description: 'Oldest date with stored data of any type.' }),
      last_data_date: nullable('string', { format: 'date', description: 'Newest date with stored data of any type.' }),
      data_days: {
        type: 'object',
        description: 'Distinct dates with data per data type, all history.',
        required: DATA_TYPE_KEYS,
        properties: Object.fromEntries(DATA_TYPE_KEYS.map((key) => [key, { type: 'integer', minimum: 0 }])),
      },
      last_successful_sync_at: nullable('string', { format: 'date-time', description: 'End of the last sync that stored data (success or partial).' }),
      last_sync: {
        type: ['object', 'null'],
        description: 'The latest sync run (any status); the whole run at `/api/v1/users/{user_id}/sync/runs/{run_id}`.',
        required: ['run_id', 'status', 'trigger', 'started_at', 'finished_at'],
        properties: {
          run_id: { type: 'integer', minimum: 1 },
          status: { type: 'string', enum: ['queued', 'running', 'success', 'partial', 'failed', 'rate_limited', 'interrupted', 'skipped'] },
          trigger: { type: 'string' },
          started_at: { type: 'string', format: 'date-time' },
          finished_at: nullable('string', { format: 'date-time' }),
        },
      },
    },
    example: {
      user_id: '12345678',
      display_name: 'Anna',
      active: true,
      connection: 'oauth',
      polar_account_bound: true,
      connected_at: '2023-03-16T08:12:40Z',
      created_at: '2023-03-16T08:12:40Z',
      first_data_date: '2023-02-16',
      last_data_date: '2026-03-15',
      data_days: exampleDays,
      last_successful_sync_at: '2026-03-15T06:00:03Z',
      last_sync: { run_id: 42, status: 'success', trigger: 'scheduler', started_at: '2026-03-15T06:00:01Z', finished_at: '2026-03-15T06:00:03Z' },
    },
  },
}

export const paths: OpenApiModule['paths'] = {
  '/api/v1/users': {
    get: {
      tags: ['Users'],
      summary: 'List users',
      description:
        'With a service key every user, by creation, as a JSON array; with a user-scoped key only its own user. ' +
        'Paginated with `limit` (default 50) and the `cursor` of the `Link: rel="next"` header; no Link header on ' +
        'the last page.',
      operationId: 'listUsers',
      security: apiKeySecurity,
      parameters: paginationParams(50),
      responses: {
        200: jsonResponse('Users', { type: 'array', items: ref('UserSummary') }, {
          ...rateLimitHeaders,
          ...linkHeader,
        } as typeof rateLimitHeaders),
        ...errorResponses(401, 422, 429),
      },
    },
  },
  '/api/v1/users/{user_id}': {
    get: {
      tags: ['Users'],
      summary: 'One user',
      description: 'The same summary as the list, for one user (404 when unknown; 403 for another user with a user-scoped key).',
      operationId: 'getUser',
      security: apiKeySecurity,
      parameters: [userIdParam],
      responses: {
        200: jsonResponse('The user', ref('UserSummary')),
        ...errorResponses(401, 403, 404, 422, 429),
      },
    },
  },
}
