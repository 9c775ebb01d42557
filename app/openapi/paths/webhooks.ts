import { errorResponses, type JsonSchema, type OpenApiModule } from '#openapi/components'

/** An object whose listed properties are required and the rest optional. */
const withRequired = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  required,
  properties,
})

/** Polar's push notifications (registered with `node ace polar:webhook register`). */
export const tags = [
  {
    name: 'Webhooks',
    description:
      'Receivers of provider push notifications. Called by Polar, not by integrators: authenticated by the ' +
      '`Polar-Webhook-Signature` header (hex HMAC-SHA256 of the raw body with the secret stored at registration).',
  },
]

export const schemas = {
  PolarWebhookEvent: withRequired(
    {
      event: {
        type: 'string',
        description: 'PING (unsigned, sent while the webhook is created), or the kind of data that changed.',
        examples: ['SLEEP'],
      },
      user_id: { type: 'integer', description: 'Polar user id; matched to the HRVault user bound to that account.', examples: [475] },
      date: { type: 'string', format: 'date', description: 'SLEEP, ACTIVITY_SUMMARY, CONTINUOUS_HEART_RATE.' },
      entity_id: { type: 'string', description: 'EXERCISE: the hashed exercise id.', examples: ['aQlC83'] },
      from: { type: 'string', description: 'SLEEP_WISE_*: start of the changed range.' },
      to: { type: 'string', description: 'SLEEP_WISE_*: end of the changed range.' },
      timestamp: { type: 'string', format: 'date-time' },
      url: { type: 'string', format: 'uri', description: 'Where Polar serves the changed item.' },
    },
    ['event']
  ),
  PolarWebhookReceipt: withRequired(
    {
      status: {
        type: 'string',
        enum: ['pong', 'queued', 'duplicate', 'ignored'],
        description:
          'pong: a PING; queued: the targeted fetch is queued; duplicate: the same event arrived within ' +
          'POLAR_WEBHOOK_DEDUP_SECONDS and is fetched once; ignored: an event HRVault does not fetch, or no user is bound to the account.',
      },
      job_id: { type: 'string', description: 'The queued fetch (status queued).' },
      reason: { type: 'string', description: 'Why the event was ignored.' },
    },
    ['status']
  ),
}

export const paths: OpenApiModule['paths'] = {
  '/webhooks/polar': {
    post: {
      tags: ['Webhooks'],
      summary: 'Receive a Polar push notification',
      description:
        'Answers 200 at once and fetches only what the event names in a queued job (SLEEP: that night and its ' +
        'Nightly Recharge; EXERCISE: that exercise; ACTIVITY_SUMMARY: that day\'s activity and cardio load; ' +
        'CONTINUOUS_HEART_RATE: that day; SLEEP_WISE_*: that range). Duplicate and out-of-order deliveries are harmless.',
      operationId: 'receivePolarWebhook',
      security: [],
      parameters: [
        {
          name: 'Polar-Webhook-Signature',
          in: 'header',
          required: false,
          description: 'Hex HMAC-SHA256 of the raw body; required on every event but PING.',
          schema: { type: 'string' },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/PolarWebhookEvent' },
            example: { event: 'SLEEP', user_id: 475, date: '2026-03-15', timestamp: '2026-03-15T07:02:11Z', url: 'https://www.polaraccesslink.com/v3/users/sleep/2026-03-15' },
          },
        },
      },
      responses: {
        200: {
          description: 'Accepted (or a PING answered, or ignored).',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/PolarWebhookReceipt' },
              example: { status: 'queued', job_id: '01J9Z3K8Q2' },
            },
          },
        },
        ...errorResponses(400, 401, 413, 422, 429),
      },
    },
  },
}
