import {
  apiKeySecurity,
  dataRouteErrors,
  errorResponses,
  listPageHeaders,
  listPageParams,
  objectSchema,
  rateLimitHeaders,
  ref,
  userIdParam,
  windowParams,
  type OpenApiModule,
} from '#openapi/components'
import { DATA_TYPE_KEYS } from '#services/records/data_types'

/** JSON Lines exports per type, the takeout ZIP and the erasure of a user (issue 19). */
export const tags = [
  { name: 'Users', description: 'The users an API key may see, and the erasure of a user and everything stored for them (GDPR right to erasure).' },
]

const typeParam = {
  name: 'type',
  in: 'path',
  required: true,
  description: 'A catalogued data type (the keys of a sync result); an unknown type is a 422.',
  schema: { type: 'string', enum: [...DATA_TYPE_KEYS] },
}

const rawParam = {
  name: 'raw',
  in: 'query',
  required: false,
  description: 'true adds the raw-payload archive as raw/<type>.jsonl (every wire item as Polar sent it).',
  schema: { type: 'boolean', default: false },
}

const attachment = (pattern: string) => ({
  ...rateLimitHeaders,
  'Content-Disposition': { schema: { type: 'string' }, description: `attachment; filename="${pattern}"` },
})

const manifestFile = objectSchema({
  name: { type: 'string', description: 'Path inside the archive, e.g. sleep.jsonl, raw/sleep.jsonl.' },
  rows: { type: 'integer', minimum: 0, description: 'Data rows in the file (a CSV header row is not counted).' },
  bytes: { type: 'integer', minimum: 0 },
  sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the file’s bytes.' },
})

export const schemas = {
  TakeoutManifest: {
    ...objectSchema(
      {
        format: { type: 'string', const: 'hrvault-takeout/1' },
        user_id: { type: 'string' },
        generated_at: { type: 'string', format: 'date-time' },
        app_version: { type: ['string', 'null'] },
        raw_included: { type: 'boolean' },
        files: { type: 'array', items: manifestFile, description: 'Every other file of the archive, in archive order.' },
      },
      'manifest.json, the last file of a takeout ZIP.'
    ),
    example: {
      format: 'hrvault-takeout/1',
      user_id: '12345678',
      generated_at: '2026-03-15T12:00:00.000Z',
      app_version: '0.1.0',
      raw_included: false,
      files: [{ name: 'sleep.jsonl', rows: 412, bytes: 1048576, sha256: '9b2f0c6d4e1a8f7b3c5d2e9a0f4b6c8d1e3a5f7b9c0d2e4f6a8b0c1d3e5f7a9b' }],
    },
  },
  StoredRow: {
    type: 'object',
    additionalProperties: true,
    description:
      'One stored row: the table’s snake_case columns (every stored field, the internal user key left out). Booleans, numbers and null keep their JSON types, timestamps are ISO 8601 UTC, JSON kept as text (hypnograms, samples, zones) is embedded as JSON.',
    example: { id: 41, date: '2026-03-14', sleep_score: 82, light_sleep_seconds: 15120, hypnogram: [{ time: '23:10:00', stage: 1 }] },
  },
}

export const paths: OpenApiModule['paths'] = {
  '/api/v1/users/{user_id}/export/{type}.jsonl': {
    get: {
      tags: ['Export'],
      summary: 'One data type as JSON Lines',
      description:
        'Every stored row of the type dated in the window (`days` or a `from`/`to` range), oldest first (date, then id), one JSON object per line (LF), streamed; with `limit`, one page of rows per request. Only an empty body when there is no data. Read-cached like the CSV files.',
      operationId: 'exportJsonLines',
      security: apiKeySecurity,
      parameters: [userIdParam, typeParam, ...windowParams(30, 365), ...listPageParams],
      responses: {
        200: {
          description: '{type}.jsonl, streamed',
          headers: { ...attachment('{type}_{user_id}_{from}_{to}.jsonl'), ...listPageHeaders },
          content: {
            'application/x-ndjson': {
              // One StoredRow per line ($defs names it; OpenAPI 3.1 has no schema for a line of a stream).
              schema: { type: 'string', description: 'Lines of StoredRow objects.', $defs: { line: ref('StoredRow') } },
              example: '{"id":41,"date":"2026-03-14","sleep_score":82}\n{"id":42,"date":"2026-03-15","sleep_score":null}\n',
            },
          },
        },
        ...dataRouteErrors(),
      },
    },
  },
  '/api/v1/users/{user_id}/export/takeout': {
    get: {
      'tags': ['Export'],
      'summary': 'Takeout: everything stored for the user as one ZIP',
      'description':
        'A ZIP streamed as it is written: `<type>.jsonl` and `<type>.csv` (RFC 4180, same columns) for every catalogued data type with the whole stored history, oldest first; `baselines.jsonl`, `patterns.jsonl`; with `raw=true` `raw/<type>.jsonl` from the raw-payload archive; last `manifest.json` (TakeoutManifest) with each file’s row count and SHA-256. Errors are problems only before the first byte; a failure while streaming aborts the download. Never cached.',
      'operationId': 'exportTakeout',
      security: apiKeySecurity,
      'x-read-cache': false,
      'parameters': [userIdParam, rawParam],
      'responses': {
        200: {
          description: 'hrvault-{user_id}-{date}.zip, streamed',
          headers: attachment('hrvault-{user_id}-{YYYY-MM-DD}.zip'),
          content: {
            'application/zip': {
              // The archive's manifest.json is a TakeoutManifest ($defs names it for readers and tools).
              schema: { type: 'string', format: 'binary', $defs: { manifest: ref('TakeoutManifest') } },
            },
          },
        },
        ...dataRouteErrors(),
      },
    },
  },
  '/api/v1/users/{user_id}': {
    delete: {
      tags: ['Users'],
      summary: 'Erase a user (GDPR)',
      description:
        'De-registers the user at Polar with their token (a refusal or an outage is recorded, never blocking), then deletes every row stored for them in one transaction: every table with their user id (data, raw archive, baselines, patterns, sync runs, API keys, OAuth grants), queued and failed jobs, the stored provider token and the user. An audit entry keeps who asked, the tables and row counts and Polar’s answer, no health data. A service key, or a key scoped to this user. 409 while a sync of the user runs; afterwards the user is a 404.',
      operationId: 'deleteUser',
      security: apiKeySecurity,
      parameters: [userIdParam],
      responses: {
        204: { description: 'Erased.', headers: rateLimitHeaders },
        ...errorResponses(401, 403, 404, 409, 422, 429),
      },
    },
  },
}
