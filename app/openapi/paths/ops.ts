import { opsPrefix } from '#config/surfaces'
import {
  errorResponses,
  jsonResponse,
  nullable,
  objectSchema,
  ref,
  type JsonSchema,
  type OpenApiModule,
} from '#openapi/components'

/** The operations API of this HRVault instance, under OPS_PREFIX (default /ops). */
export const tags = [
  {
    name: 'Operations',
    description:
      'Health, stats, logs, queue and console of this instance. Bearer token from OPS_TOKENS / OPS_TOKEN; each route needs the scope named in its description (or `*`). 401 missing/invalid token, 403 scope lacking, 429 rate limited (per token; console runs 10/min, retries 30/min).',
  },
]

const usage: JsonSchema = objectSchema({
  used_bytes: { type: 'integer' },
  total_bytes: { type: 'integer' },
  used_percent: { type: 'number', minimum: 0, maximum: 100 },
})

const check: JsonSchema = {
  type: 'object',
  required: ['status', 'latency_ms'],
  properties: {
    status: { type: 'string', enum: ['healthy', 'unhealthy'] },
    latency_ms: { type: 'number' },
    message: { type: 'string', description: 'Short reason when unhealthy (no internals).' },
  },
}

export const schemas = {
  OpsHealthReport: objectSchema({
    status: { type: 'string', enum: ['healthy', 'unhealthy'] },
    checks: objectSchema({ database: check, cache: check, storage: check, queue: check }),
    polar_budget: {
      oneOf: [ref('OpsPolarBudget'), { type: 'null' }],
      description: 'Information, not a check (a full window delays syncs; it does not make the service unhealthy). Null when it could not be read in time.',
    },
    timestamp: { type: 'string', format: 'date-time', description: 'ISO 8601 with offset (APP_TIMEZONE).' },
  }),
  OpsStatsReport: objectSchema({
    stats: objectSchema({
      cpu: objectSchema({
        cores: { type: 'integer' },
        load_average: objectSchema(
          { '1m': { type: 'number' }, '5m': { type: 'number' }, '15m': { type: 'number' } },
          'Host-wide load averages.'
        ),
        usage_percent: {
          type: 'number',
          description: 'Busy share sampled over ~150 ms; relative to the cgroup CPU quota when one is set.',
        },
      }),
      memory: {
        ...usage,
        required: [...(usage.required as string[]), 'source'],
        properties: {
          ...(usage.properties as Record<string, JsonSchema>),
          source: { type: 'string', enum: ['cgroup', 'host'], description: 'cgroup when a container memory limit applies.' },
        },
      },
      disk: { ...usage, description: 'File system of the storage directory.' },
      process: objectSchema({
        uptime_seconds: { type: 'number' },
        rss_bytes: { type: 'integer' },
        heap_used_bytes: { type: 'integer' },
      }),
    }),
    timestamp: { type: 'string', format: 'date-time' },
  }),
  OpsLogFiles: objectSchema({ files: { type: 'array', items: { type: 'string' }, description: 'Most recently modified first.' } }),
  OpsLogEntry: {
    type: 'object',
    description: 'One pino JSON line; the line’s other keys (pid, hostname, request ids, err…) follow as context.',
    required: ['line', 'timestamp', 'level', 'message'],
    properties: {
      line: { type: 'integer', description: '1-based line number in the file.' },
      timestamp: nullable('string', { format: 'date-time' }),
      level: { type: ['string', 'null'], enum: ['TRACE', 'DEBUG', 'INFO', 'WARNING', 'ERROR', 'FATAL', null] },
      message: { type: 'string' },
    },
    additionalProperties: true,
  },
  OpsLogRead: objectSchema({
    file: { type: 'string' },
    entries: { type: 'array', items: ref('OpsLogEntry'), description: 'Newest first.' },
    has_more: { type: 'boolean', description: 'Older entries matching the same filters exist.' },
  }),
  OpsPolarBudget: objectSchema(
    {
      registered_users: { type: 'integer', description: 'Users with a stored Polar token (the U of Polar\'s formula).' },
      windows: {
        type: 'array',
        items: objectSchema({
          window: { type: 'string', enum: ['short', 'long'], description: '15 minutes or 24 hours.' },
          used: { type: 'integer', description: 'Calls in the current window (shared counter, corrected by Polar\'s headers).' },
          limit: { type: 'integer' },
          limit_source: { type: 'string', enum: ['polar', 'formula'] },
          resets_in_seconds: { type: 'integer' },
        }),
      },
    },
    'The installation\'s Polar request budget (one AccessLink client for every user).'
  ),
  OpsQueueStatus: objectSchema({
    connection: { type: 'string', description: 'Queue backend: database or redis.' },
    queues: {
      type: 'object',
      additionalProperties: objectSchema({
        pending: { type: 'integer' },
        processing: { type: 'integer' },
        delayed: { type: 'integer' },
      }),
    },
    failed_count: { type: 'integer' },
    polar_budget: ref('OpsPolarBudget'),
  }),
  OpsFailedJob: objectSchema({
    id: { type: 'integer' },
    connection: { type: 'string' },
    queue: { type: 'string' },
    job_name: { type: 'string' },
    failed_at: { type: 'string', format: 'date-time' },
    exception: { type: 'string' },
  }),
  OpsFailedJobPage: objectSchema({
    failed_jobs: { type: 'array', items: ref('OpsFailedJob'), description: 'Newest first.' },
    total: { type: 'integer' },
    page: { type: 'integer' },
    per_page: { type: 'integer' },
    last_page: { type: 'integer' },
  }),
  OpsRetryResult: objectSchema({
    retried: {
      type: 'array',
      items: objectSchema({
        id: { type: 'integer', description: 'The failed job id that was re-queued.' },
        queue: { type: 'string' },
        connection: { type: 'string' },
        job_name: { type: 'string' },
        job_id: { type: 'string', description: 'Queue id of the new dispatch.' },
      }),
    },
    count: { type: 'integer' },
  }),
  OpsConsoleCommands: objectSchema({ commands: { type: 'array', items: { type: 'string' } } }),
  OpsConsoleRunRequest: {
    type: 'object',
    required: ['command'],
    properties: {
      command: {
        type: 'string',
        minLength: 1,
        maxLength: 1000,
        description: 'An allowlisted Ace command name, optionally followed by arguments (split on spaces, quotes honoured, no shell).',
      },
      args: { type: 'array', items: { type: 'string', maxLength: 512 }, maxItems: 32, description: 'More arguments.' },
    },
  },
  OpsConsoleResult: objectSchema({
    success: { type: 'boolean' },
    command: { type: 'string' },
    output: { type: 'string', description: 'stdout and stderr, capped at 256 KiB (marked when truncated).' },
    exit_code: { type: 'integer', description: '124 when stopped by the timeout.' },
    timed_out: { type: 'boolean' },
    truncated: { type: 'boolean' },
    duration_ms: { type: 'integer' },
  }),
}

const security = [{ opsToken: [] }]
const authErrors = () => errorResponses(401, 403, 429)
const op = (scope: string, summary: string, operationId: string, extra: Record<string, unknown>, about = '') => ({
  tags: ['Operations'],
  summary,
  description: `${about}${about ? ' ' : ''}Needs scope \`${scope}\` (or \`*\`).`,
  operationId,
  security,
  ...extra,
})

export const paths: OpenApiModule['paths'] = {
  [`${opsPrefix}/health`]: {
    get: op('health:read', 'Health of database, cache, storage and queue', 'opsHealth', {
      responses: {
        200: jsonResponse('Every check healthy', ref('OpsHealthReport')),
        503: jsonResponse('At least one check unhealthy', ref('OpsHealthReport')),
        ...authErrors(),
      },
    }, 'Each check (database, cache, storage, queue) with its status and latency, plus Polar’s request budget as information; 503 with the same body when a check fails, so a monitor can alert on the status alone.'),
  },
  [`${opsPrefix}/stats`]: {
    get: op('stats:read', 'CPU, memory, disk and process figures', 'opsStats', {
      responses: { 200: jsonResponse('Stats report', ref('OpsStatsReport')), ...authErrors() },
    }, 'CPU cores, load and usage, memory (of the container when limited), disk of the storage directory, and the process’s uptime and memory.'),
  },
  [`${opsPrefix}/logs`]: {
    get: op('logs:read', 'Log files in LOG_DIR', 'opsLogFiles', {
      responses: { 200: jsonResponse('Log file names', ref('OpsLogFiles')), ...authErrors() },
    }, 'The names of the log files in LOG_DIR, most recently modified first.'),
  },
  [`${opsPrefix}/logs/{file}`]: {
    get: op('logs:read', 'Newest entries of a log file', 'opsLogRead', {
      parameters: [
        { name: 'file', in: 'path', required: true, description: 'A name listed by GET /logs.', schema: { type: 'string' } },
        { name: 'lines', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
        {
          name: 'level',
          in: 'query',
          required: false,
          description: 'Exact level, case-insensitive; WARN and WARNING are the same.',
          schema: { type: 'string', enum: ['TRACE', 'DEBUG', 'INFO', 'WARN', 'WARNING', 'ERROR', 'FATAL'] },
        },
        {
          name: 'search',
          in: 'query',
          required: false,
          description: 'Literal, case-insensitive term matched in the message and context values.',
          schema: { type: 'string', maxLength: 500 },
        },
      ],
      responses: {
        200: jsonResponse('Entries, newest first', ref('OpsLogRead')),
        ...errorResponses(401, 403, 404, 422, 429),
      },
    }, 'The newest `lines` entries of one log file, parsed, filtered by exact level and a literal search term; 404 for a name `GET /logs` does not list.'),
  },
  [`${opsPrefix}/queue`]: {
    get: op('queue:read', 'Queue counts and failed job count', 'opsQueue', {
      responses: { 200: jsonResponse('Queue status', ref('OpsQueueStatus')), ...authErrors() },
    }, 'Jobs pending, delayed and processing per queue, how many failed, and Polar’s request budget.'),
  },
  [`${opsPrefix}/queue/failed`]: {
    get: op('queue:read', 'Failed jobs, newest first', 'opsFailedJobs', {
      parameters: [
        { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
        { name: 'per_page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
      ],
      responses: { 200: jsonResponse('A page of failed jobs', ref('OpsFailedJobPage')), ...errorResponses(401, 403, 422, 429) },
    }, 'Jobs that failed, newest first, with queue, job name and exception, in pages of `per_page`.'),
  },
  [`${opsPrefix}/queue/retry/{id}`]: {
    post: op('queue:retry', 'Dispatch one failed job again', 'opsRetryFailedJob', {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      responses: {
        200: jsonResponse('The job was re-queued and left the failed list', ref('OpsRetryResult')),
        ...errorResponses(401, 403, 404, 422, 429),
      },
    }, 'Puts one failed job back on its queue and removes it from the failed list; 404 for an unknown id.'),
  },
  [`${opsPrefix}/queue/retry-all`]: {
    post: op('queue:retry', 'Dispatch every failed job again', 'opsRetryAllFailedJobs', {
      responses: { 200: jsonResponse('What was re-queued', ref('OpsRetryResult')), ...authErrors() },
    }, 'Puts every failed job back on its queue.'),
  },
  [`${opsPrefix}/console`]: {
    get: op('console:list', 'Allowlisted Ace commands (OPS_CONSOLE_COMMANDS)', 'opsConsoleCommands', {
      responses: { 200: jsonResponse('Command names', ref('OpsConsoleCommands')), ...authErrors() },
    }, 'The Ace commands `POST /console` may run (OPS_CONSOLE_COMMANDS).'),
    post: {
      ...op('console:execute', 'Run an allowlisted Ace command', 'opsConsoleRun', {
        requestBody: { required: true, content: { 'application/json': { schema: ref('OpsConsoleRunRequest') } } },
        responses: {
          200: jsonResponse('The run’s result (also when the command fails: success false, its exit code)', ref('OpsConsoleResult')),
          ...errorResponses(400, 401, 403, 422, 429),
        },
      }),
      description:
        'Scope `console:execute`. Runs `node ace <command> [args]` in a child process without a shell, with OPS_CONSOLE_TIMEOUT_SECONDS and a 256 KiB output cap. A command outside the allowlist is a 403 whose problem body lists `allowed_commands`. Every run is written to the audit log.',
    },
  },
}
