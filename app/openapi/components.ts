/**
 * Shared OpenAPI 3.1 building blocks. Each module under app/openapi/paths/
 * exports `paths` (and optionally `schemas`) built from these helpers; the
 * document service merges every module found there.
 */

export type JsonSchema = Record<string, unknown>
export type PathItem = Record<string, unknown>

export interface OpenApiModule {
  paths: Record<string, PathItem>
  schemas?: Record<string, JsonSchema>
  tags?: Array<{ name: string; description: string }>
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** The security of the analytics API routes: an X-API-Key (service or user-scoped). */
export const apiKeySecurity = [{ apiKey: [] }]

/** A nullable scalar in 3.1 style (type arrays, no `nullable`). */
export const nullable = (type: 'number' | 'integer' | 'string' | 'boolean', extra: JsonSchema = {}) => ({
  type: [type, 'null'],
  ...extra,
})

/** A local wall-clock time as Polar sends it: `YYYY-MM-DD hh:mm:ss`, no offset. */
export const LOCAL_TIME = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$'
export const localTime = (description: string): JsonSchema => ({ type: 'string', pattern: LOCAL_TIME, description })

/** A Polar enum label (passed through as sent), null when not set. */
export const label = (description: string) => nullable('string', { description })

export const objectSchema = (properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({
  type: 'object',
  ...(description ? { description } : {}),
  required: Object.keys(properties),
  properties,
})

export const userIdParam = {
  name: 'user_id',
  in: 'path',
  required: true,
  description: 'User id: the Polar user id (self-hosted) or your own id (SaaS). 1–100 chars of [A-Za-z0-9_.-].',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,100}$' },
}

/** `days` query parameter: exactly N calendar days ending today (APP_TIMEZONE). */
export const daysParam = (defaultDays: number, maxDays: number) => ({
  name: 'days',
  in: 'query',
  required: false,
  description: `Calendar days ending today, ${1}–${maxDays} (default ${defaultDays}).`,
  schema: { type: 'integer', minimum: 1, maximum: maxDays, default: defaultDays },
})

export const dateParam = {
  name: 'date',
  in: 'path',
  required: true,
  description: 'Calendar date YYYY-MM-DD (must exist: 2026-02-30 is a 422).',
  schema: { type: 'string', format: 'date' },
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request (bad JSON, a required header missing).',
  401: 'Missing or invalid credentials.',
  403: 'Valid credentials without the right (scope, another user).',
  404: 'Unknown user, name or record.',
  409: 'Conflict (a sync is already running for this user).',
  422: 'A parameter is out of range or malformed, or not one the operation accepts (the problem names it and lists the accepted ones).',
  429: 'Rate limited; see Retry-After and RateLimit-* headers.',
  502: 'Upstream refused or failed.',
  503: 'Service or upstream temporarily unavailable; see Retry-After.',
  504: 'Upstream timed out.',
}

/** Problem+json responses for the listed statuses. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/problem+json': { schema: ref('Problem') } },
      },
    ])
  )
}

/**
 * Request line and headers over Node's 16 KB limit are refused by the HTTP parser before any route
 * runs (no body): the one client error of the public documents, which take no input.
 */
export const headersTooLargeResponse = () => ({
  431: { description: 'Request line and headers over 16 KB, refused before routing (no body).' },
})

/** The standard errors of an analytics-API data route. */
export const dataRouteErrors = () => errorResponses(401, 403, 404, 422, 429)

export const rateLimitHeaders = {
  'RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requests allowed in the window.' },
  'RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Requests left in the window.' },
  'RateLimit-Reset': { schema: { type: 'integer' }, description: 'Seconds until the window resets.' },
}

/**
 * What every GET under /api/v1/users/{user_id} adds (ReadCacheMiddleware): a strong ETag on 200,
 * `If-None-Match` answered with 304, gzip for a client that prefers it.
 */
export function withConditionalGet(operation: Record<string, any>) {
  const validatorHeaders = {
    'ETag': { schema: { type: 'string' }, description: 'Strong validator of the body in its content coding; send it back in If-None-Match.' },
    'Cache-Control': { schema: { type: 'string', const: 'private, no-cache' }, description: 'Clients may keep the answer but must revalidate it.' },
    'Vary': { schema: { type: 'string', const: 'Accept-Encoding' }, description: 'The body depends on Accept-Encoding.' },
    'Content-Encoding': {
      schema: { type: 'string', const: 'gzip' },
      description: 'Present when the body is gzip-compressed: answers of 1 kB or more to a client whose Accept-Encoding prefers gzip.',
    },
  }
  const ok = operation.responses?.['200']
  return {
    ...operation,
    parameters: [
      ...(operation.parameters ?? []),
      { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'An ETag from an earlier answer: 304 when it is still current.' },
      {
        name: 'Accept-Encoding',
        in: 'header',
        required: false,
        schema: { type: 'string' },
        description: '`gzip` (preferred to the identity) gets answers of 1 kB or more compressed, with their own ETag.',
        example: 'gzip',
      },
    ],
    responses: {
      ...operation.responses,
      ...(ok ? { 200: { ...ok, headers: { ...(ok.headers ?? {}), ...validatorHeaders } } } : {}),
      304: {
        description: 'Not modified: the ETag sent in If-None-Match is current (no body; still counted by the rate limit).',
        headers: { ETag: validatorHeaders.ETag, ...rateLimitHeaders },
      },
    },
  }
}

/** `limit` and `cursor` of a paginated list (keyset pages; the body stays a JSON array). */
export const paginationParams = (defaultLimit: number) => [
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: `Rows per page, 1–1000 (default ${defaultLimit}). When more rows exist the answer has a \`Link: <…>; rel="next"\` header.`,
    schema: { type: 'integer', minimum: 1, maximum: 1000, default: defaultLimit },
    example: 20,
  },
  {
    name: 'cursor',
    in: 'query',
    required: false,
    description: 'Opaque position from the `rel="next"` link of the previous page; send it back unchanged (anything else is a 422).',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,200}$' },
    example: 'eyJ2IjoxLCJhZnRlciI6NDJ9',
  },
]

/**
 * The window of a data list or export: `days` (the spec's default and range) or an inclusive
 * `from`/`to` range of ISO dates in APP_TIMEZONE reaching any stored date.
 */
export const windowParams = (defaultDays: number, maxDays: number) => [
  {
    ...daysParam(defaultDays, maxDays),
    description: `Calendar days ending today, 1–${maxDays} (default ${defaultDays}). Not together with \`from\`/\`to\` (422).`,
  },
  {
    name: 'from',
    in: 'query',
    required: false,
    description:
      'First day of an inclusive date range (YYYY-MM-DD, APP_TIMEZONE) instead of `days`; any stored date, no 365-day cap. Alone it runs to today. After `to`, or an impossible date (2026-02-30), is a 422.',
    schema: { type: 'string', format: 'date' },
    example: '2023-04-01',
  },
  {
    name: 'to',
    in: 'query',
    required: false,
    description: 'Last day of the range (inclusive, YYYY-MM-DD). Needs `from` (`to` alone is a 422).',
    schema: { type: 'string', format: 'date' },
    example: '2023-06-30',
  },
]

/**
 * `limit`/`cursor` of a data list or export: without them the whole window in one answer (as
 * before); with them keyset pages in the list's order (date, then id), the body unchanged.
 */
export const listPageParams = [
  {
    name: 'limit',
    in: 'query',
    required: false,
    description:
      'Rows per page, 1–1000. Without `limit` (and `cursor`) the whole window comes in one answer. A paged answer has `X-Total-Count` and, when more rows exist, `Link: <…>; rel="next"`.',
    schema: { type: 'integer', minimum: 1, maximum: 1000 },
    example: 100,
  },
  {
    name: 'cursor',
    in: 'query',
    required: false,
    description:
      'Opaque position from the `rel="next"` link of the previous page; send it back unchanged (a cursor of another list, or anything else, is a 422). With a cursor alone the page size is 50.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,400}$' },
    example: 'eyJ2IjoxLCJhZnRlciI6OTEyLCJrIjpbIjIwMjUtMDEtMTQiXX0',
  },
]

/** Headers of a paged data list or export (`limit`/`cursor` sent). */
export const listPageHeaders = {
  'Link': {
    schema: { type: 'string' },
    description: 'When more rows exist: `<{path}?…&limit=…&cursor=…>; rel="next"`, the request’s path and parameters with the next cursor.',
    example: '</api/v1/users/12345678/sleep?from=2023-04-01&limit=100&cursor=eyJ2IjoxLCJhZnRlciI6OTEyLCJrIjpbIjIwMjUtMDEtMTQiXX0>; rel="next"',
  },
  'X-Total-Count': {
    schema: { type: 'integer', minimum: 0 },
    description: 'Rows in the whole window (every page together), on paged answers.',
  },
}

/** RFC 8288 `Link` header of a page that has a next page. */
export const linkHeader = {
  Link: {
    schema: { type: 'string' },
    description: 'Present when more rows exist: `<{path}?limit=…&cursor=…>; rel="next"` (a URL relative to the request).',
    example: '</api/v1/users/12345678/sync/runs?limit=20&cursor=eyJ2IjoxLCJhZnRlciI6NDJ9>; rel="next"',
  },
}

export const jsonResponse = (description: string, schema: JsonSchema, headers = rateLimitHeaders) => ({
  description,
  headers,
  content: { 'application/json': { schema } },
})

export const problemSchema: JsonSchema = {
  type: 'object',
  description: 'RFC 9457 problem details.',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', description: 'Stable machine-readable error code (E_…).' },
    // Extension members some problems carry (RFC 9457 §3.2), each named where it appears.
    user_id: { type: 'string', description: 'Sync problems: the user concerned.' },
    provider: { type: 'string', description: 'Sync problems: the upstream provider (`polar`).' },
    provider_errors: {
      type: 'object',
      description: '`E_SYNC_FAILED`: the provider’s reason per data type.',
      additionalProperties: { type: 'string' },
    },
    results: {
      type: 'object',
      description: '`E_PROVIDER_RATE_LIMITED`: records stored per data type before the limit stopped the sync.',
      additionalProperties: { type: 'integer', minimum: 0 },
    },
    retry_after: { type: 'integer', minimum: 0, description: 'Seconds until a new attempt can succeed (also in `Retry-After`).' },
    valid_names: {
      type: 'array',
      items: { type: 'string' },
      description: '`E_UNKNOWN_METRIC`, `E_UNKNOWN_PATTERN`: the names that exist.',
    },
    allowed_commands: {
      type: 'array',
      items: { type: 'string' },
      description: '`E_OPS_CONSOLE_COMMAND_NOT_ALLOWED`: the commands the console runs.',
    },
    upstream: { type: 'string', enum: ['coolify', 'ops'], description: 'Dashboard problems: which upstream failed or refused.' },
    upstream_status: { type: 'integer', description: '`E_COOLIFY_OPS_INVALID_RESPONSE`: the status the ops API answered.' },
    reason: { type: 'string', description: '`E_COOLIFY_OPS_NOT_CONFIGURED`: what the ops proxy is missing (as in the ops status).' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'rule', 'message'],
        properties: { field: { type: 'string' }, rule: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
}
