import { SYNC_TYPE_KEYS } from '#services/sync/sync_types'
import { errorResponses, jsonResponse, objectSchema, ref, userIdParam, type OpenApiModule } from '#openapi/components'

/** Surface A sync trigger. */
export const tags = [{ name: 'Sync', description: 'Fetch the latest data from Polar now.' }]


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
        '`Retry-After` when Polar rate-limits.',
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
          description: 'Calendar days ending today, 1–365 (default SYNC_DAYS, 28).',
          schema: { type: 'integer', minimum: 1, maximum: 365 },
        },
      ],
      responses: {
        200: jsonResponse('Sync result', ref('SyncResult')),
        ...errorResponses(400, 401, 403, 409, 422, 429, 502, 503),
      },
    },
  },
}
