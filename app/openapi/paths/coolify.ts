import { dashboardApiPrefix } from '#config/surfaces'
import { errorResponses, nullable, objectSchema, ref, type JsonSchema, type OpenApiModule } from '#openapi/components'

/** The Coolify dashboard API and the ops proxy, under DASHBOARD_PREFIX + /api. */
export const tags = [
  {
    name: 'Coolify',
    description:
      'Coolify resources through the Coolify v1 API (COOLIFY_URL, COOLIFY_TOKEN). Admin session required (JSON 401 when logged out) and a CSRF token (X-XSRF-TOKEN header from the XSRF-TOKEN cookie) on every mutation. Secrets (env values, webhook secrets, passwords, tokens, `custom_docker_run_options`, compose files, and the credentials inside any URL in any answer, e.g. `git_repository` or log lines) are masked as `********` unless `reveal=true`, which is audit-logged. Every answer, errors included, carries `Content-Security-Policy: default-src \'none\'; frame-ancestors \'none\'; sandbox` and `X-Content-Type-Options: nosniff`. With COOLIFY_PROJECT_UUID every `{uuid}` outside that project is a 403. Coolify failures: unreachable 502, timeout 504, token rejected 502, other Coolify 4xx keep their status and message; the problem body names `upstream: "coolify"`.',
  },
  {
    name: 'Coolify ops proxy',
    description:
      'Proxy to the operations API of an application deployed on Coolify. Its base URL is the application’s first https domain + its OPS_PREFIX env var (default /ops; only `^/[A-Za-z0-9/_-]*$`); its token is its OPS_TOKEN env var. Both are read from Coolify and never leave the server. Plain http and domains that are or resolve to loopback, private or link-local addresses are refused (409, reason `target_not_allowed`) unless COOLIFY_OPS_ALLOW_PRIVATE=true. Answers are always JSON: the ops API’s status and its JSON body re-serialised (its 401, 403 and 404 pass through, `application/problem+json` kept); any other answer (HTML, text, invalid JSON, over 8 MB) is a 502 `E_COOLIFY_OPS_INVALID_RESPONSE` with `upstream_status`, never the upstream body. Not configured: 409; ops API unreachable or too slow: 502 `E_COOLIFY_OPS_UNREACHABLE` with one generic detail (`upstream: "ops"`). Mutations are rate-limited (10 per minute per admin) and audited.',
  },
]

/** A Coolify object passed through as Coolify returns it (open shape). */
const coolifyObject = (description: string): JsonSchema => ({ type: 'object', description, additionalProperties: true })
const coolifyList = (description: string): JsonSchema => ({ type: 'array', description, items: { type: 'object', additionalProperties: true } })

export const schemas = {
  CoolifyMessage: {
    type: 'object',
    required: ['message'],
    properties: { message: { type: 'string' }, deployment_uuid: { type: 'string' } },
    additionalProperties: true,
  },
  CoolifyDeployResult: objectSchema({
    message: nullable('string'),
    resource_uuid: { type: 'string' },
    deployment_uuid: nullable('string'),
    force: { type: 'boolean' },
  }),
  CoolifyEnvVar: {
    type: 'object',
    required: ['uuid', 'key', 'value'],
    properties: {
      uuid: { type: 'string' },
      key: { type: 'string' },
      value: { type: ['string', 'null'], description: '`********` unless revealed.' },
      real_value: { type: ['string', 'null'], description: '`********` unless revealed.' },
      is_preview: { type: 'boolean' },
      is_literal: { type: 'boolean' },
      is_multiline: { type: 'boolean' },
      is_shown_once: { type: 'boolean' },
      is_runtime: { type: 'boolean' },
      is_buildtime: { type: 'boolean' },
      comment: { type: ['string', 'null'] },
    },
    additionalProperties: true,
  },
  CoolifyEnvVarInput: {
    type: 'object',
    properties: {
      key: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 255, description: 'Required on create; ignored on update.' },
      value: { type: ['string', 'null'], maxLength: 65535, description: 'Required on create.' },
      is_preview: { type: 'boolean', description: 'On update and delete: selects the preview variable of that key.' },
      is_literal: { type: 'boolean' },
      is_multiline: { type: 'boolean' },
      is_shown_once: { type: 'boolean' },
      is_runtime: { type: 'boolean' },
      is_buildtime: { type: 'boolean' },
      comment: { type: ['string', 'null'], maxLength: 256 },
    },
  },
  CoolifyDeployment: {
    type: 'object',
    description: 'A Coolify deployment without its raw `logs`, plus `duration_seconds`.',
    required: ['deployment_uuid', 'status'],
    properties: {
      deployment_uuid: { type: 'string' },
      application_id: { type: ['string', 'integer'] },
      application_name: { type: 'string' },
      status: { type: 'string', description: 'queued, in_progress, finished, failed, cancelled-by-user.' },
      commit: { type: ['string', 'null'] },
      commit_message: { type: ['string', 'null'] },
      created_at: { type: 'string' },
      finished_at: { type: ['string', 'null'] },
      duration_seconds: nullable('integer'),
    },
    additionalProperties: true,
  },
  CoolifyDeploymentPage: objectSchema({
    count: { type: 'integer', description: 'All deployments of the application.' },
    skip: { type: 'integer' },
    take: { type: 'integer' },
    deployments: { type: 'array', items: ref('CoolifyDeployment'), description: 'Newest first.' },
  }),
  CoolifyDeploymentLogs: objectSchema({
    deployment_uuid: { type: 'string' },
    status: nullable('string'),
    logs: {
      type: 'array',
      description: 'Oldest first.',
      items: objectSchema({
        command: nullable('string'),
        output: { type: 'string' },
        type: { type: 'string', enum: ['stdout', 'stderr'] },
        timestamp: nullable('string'),
        hidden: { type: 'boolean' },
        batch: nullable('integer'),
        order: nullable('integer'),
      }),
    },
  }),
  CoolifyBackupResult: objectSchema({
    message: { type: 'string' },
    backup_uuid: { type: 'string' },
    created: { type: 'boolean', description: 'A schedule was created because the database had none.' },
  }),
  CoolifyStatusCounts: objectSchema({
    total: { type: 'integer' },
    by_status: { type: 'object', additionalProperties: { type: 'integer' }, description: 'running, exited, … (servers: reachable, unreachable, unusable).' },
  }),
  CoolifyDashboardStats: objectSchema({
    coolify: objectSchema({
      configured: { type: 'boolean' },
      reachable: { type: 'boolean' },
      authenticated: { type: 'boolean' },
      version: nullable('string'),
      error: nullable('string'),
    }),
    project: { type: ['object', 'null'], properties: { uuid: { type: 'string' }, name: { type: ['string', 'null'] } } },
    applications: ref('CoolifyStatusCounts'),
    databases: ref('CoolifyStatusCounts'),
    services: ref('CoolifyStatusCounts'),
    servers: ref('CoolifyStatusCounts'),
    recent_deployments: {
      type: 'array',
      items: objectSchema({
        deployment_uuid: { type: 'string' },
        application_uuid: { type: 'string' },
        application_name: nullable('string'),
        status: nullable('string'),
        commit: nullable('string'),
        commit_message: nullable('string'),
        created_at: nullable('string'),
        finished_at: nullable('string'),
        duration_seconds: nullable('integer'),
      }),
    },
    errors: { type: 'object', additionalProperties: { type: 'string' }, description: 'Sections Coolify failed to deliver.' },
  }),
  CoolifyOpsStatus: objectSchema({
    configured: { type: 'boolean' },
    reachable: { type: 'boolean' },
    healthy: nullable('boolean'),
    reason: {
      type: ['string', 'null'],
      enum: ['no_https_domain', 'target_not_allowed', 'no_ops_token', 'ops_token_not_readable', 'invalid_ops_prefix', 'unreachable', 'unauthorized', 'unhealthy', 'unexpected_response', null],
    },
    message: nullable('string'),
  }),
}

const security = [{ adminSession: [] }]
const uuid = (name = 'uuid', description = 'Coolify resource uuid.') => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
})
const boolQuery = (name: string, description: string) => ({ name, in: 'query', required: false, description, schema: { type: 'boolean' } })
const reveal = boolQuery('reveal', 'Show secrets unmasked (audit-logged).')
const json = (description: string, schema: JsonSchema) => ({ description, content: { 'application/json': { schema } } })
const body = (schema: JsonSchema) => ({ required: false, content: { 'application/json': { schema } } })
const flags = (...names: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((n) => [n, { type: 'boolean' }])),
})

const readErrors = () => errorResponses(401, 403, 404, 422, 502, 503, 504)
/** A list without parameters: nothing to be malformed (403 and 404 are Coolify's own, passed through). */
const listErrors = () => errorResponses(401, 403, 404, 502, 503, 504)
const writeErrors = () => errorResponses(400, 401, 403, 404, 409, 422, 429, 502, 503, 504)

const op = (tag: string, operationId: string, summary: string, extra: Record<string, unknown>) => ({
  tags: [tag],
  operationId,
  summary,
  security,
  ...extra,
})
const coolify = (operationId: string, summary: string, upstream: string, extra: Record<string, unknown>) =>
  op('Coolify', operationId, summary, { description: `Coolify: \`${upstream}\`.`, ...extra })

const p = (path: string) => `${dashboardApiPrefix}${path}`
const appParam = uuid('app_uuid', 'Coolify application uuid.')

/** What an ops proxy operation forwards to: the application's ops route and the scope its token needs. */
const proxied = (upstream: string, scope: string) =>
  `Forwards to \`${upstream}\` of the application’s operations API with its OPS_TOKEN (which needs scope \`${scope}\`); ` +
  'the status and JSON body come back as the ops API answered them.'

/** An ops proxy read: the ops API's status and body are passed through. */
const opsRead = (operationId: string, summary: string, schema: string, upstream: string, scope: string, parameters: unknown[] = []) => ({
  get: op('Coolify ops proxy', operationId, summary, {
    description: proxied(upstream, scope),
    parameters: [appParam, ...parameters],
    responses: {
      200: json('The ops API’s JSON answer, re-serialised', ref(schema)),
      ...errorResponses(401, 403, 404, 409, 422, 502, 503, 504),
    },
  }),
})
const opsWrite = (operationId: string, summary: string, schema: string, upstream: string, scope: string, extra: Record<string, unknown> = {}) =>
  op('Coolify ops proxy', operationId, summary, {
    description: `${proxied(upstream, scope)} Rate-limited (10 per minute per admin) and audited.`,
    ...extra,
    responses: { 200: json('The ops API’s JSON answer, re-serialised', ref(schema)), ...errorResponses(401, 403, 404, 409, 422, 429, 502, 504) },
  })

export const paths: OpenApiModule['paths'] = {
  [p('/applications/{uuid}')]: {
    get: coolify('coolifyApplication', 'Application details', 'GET /applications/{uuid}', {
      parameters: [uuid(), reveal],
      responses: { 200: json('The application (webhook secrets masked)', coolifyObject('Coolify application')), ...readErrors() },
    }),
    patch: coolify('coolifyApplicationUpdate', 'Update application settings', 'PATCH /applications/{uuid}', {
      parameters: [uuid()],
      requestBody: body({
        type: 'object',
        description: 'Coolify field names: `domains` (comma-separated URLs, not fqdn), `limits_cpus` (not limits_cpu).',
        properties: {
          name: { type: 'string' },
          description: { type: ['string', 'null'] },
          domains: { type: 'string' },
          git_branch: { type: 'string' },
          git_commit_sha: { type: 'string', pattern: '^(HEAD|[0-9a-f]{7,40})$' },
          build_pack: { type: 'string', enum: ['nixpacks', 'static', 'dockerfile', 'dockercompose'] },
          ports_exposes: { type: 'string' },
          health_check_enabled: { type: 'boolean' },
          health_check_path: { type: 'string' },
          health_check_interval: { type: 'integer', minimum: 1, maximum: 3600 },
          health_check_timeout: { type: 'integer', minimum: 1, maximum: 300 },
          health_check_retries: { type: 'integer', minimum: 1, maximum: 100 },
          health_check_start_period: { type: 'integer', minimum: 0, maximum: 3600 },
          limits_memory: { type: 'string' },
          limits_cpus: { type: 'string' },
          instant_deploy: { type: 'boolean' },
        },
      }),
      responses: { 200: json('`{uuid}`', coolifyObject('Coolify answer')), ...writeErrors() },
    }),
  },
  [p('/applications/{uuid}/deploy')]: {
    post: coolify('coolifyDeploy', 'Trigger a deployment', 'POST /deploy?uuid={uuid}&force={force}', {
      parameters: [uuid()],
      requestBody: body(flags('force')),
      responses: { 200: json('Deployment queued (never cached)', ref('CoolifyDeployResult')), ...writeErrors() },
    }),
  },
  [p('/applications/{uuid}/restart')]: {
    post: coolify('coolifyApplicationRestart', 'Restart', 'POST /applications/{uuid}/restart', {
      parameters: [uuid()],
      responses: { 200: json('Restart queued', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/applications/{uuid}/stop')]: {
    post: coolify('coolifyApplicationStop', 'Stop', 'POST /applications/{uuid}/stop?docker_cleanup=', {
      parameters: [uuid()],
      requestBody: body(flags('docker_cleanup')),
      responses: { 200: json('Stop queued', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/applications/{uuid}/start')]: {
    post: coolify('coolifyApplicationStart', 'Start', 'POST /applications/{uuid}/start?force=&instant_deploy=', {
      parameters: [uuid()],
      requestBody: body(flags('force', 'instant_deploy')),
      responses: { 200: json('Deployment queued', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/applications/{uuid}/logs')]: {
    get: coolify('coolifyApplicationLogs', 'Container logs (uncached)', 'GET /applications/{uuid}/logs?lines=', {
      parameters: [
        uuid(),
        { name: 'lines', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 10000, default: 100 } },
        boolQuery('show_timestamps', 'Prefix lines with timestamps.'),
      ],
      responses: { 200: json('`{logs: "<text>"}`', objectSchema({ logs: { type: 'string' } })), ...errorResponses(400, 401, 403, 404, 422, 502, 503, 504) },
    }),
  },
  [p('/applications/{uuid}/envs')]: {
    get: coolify('coolifyEnvs', 'Environment variables', 'GET /applications/{uuid}/envs', {
      parameters: [uuid(), reveal],
      responses: { 200: json('Production variables first, values masked', { type: 'array', items: ref('CoolifyEnvVar') }), ...readErrors() },
    }),
    post: coolify('coolifyEnvCreate', 'Create an environment variable', 'POST /applications/{uuid}/envs', {
      parameters: [uuid()],
      requestBody: { required: true, content: { 'application/json': { schema: ref('CoolifyEnvVarInput') } } },
      responses: { 201: json('`{uuid}`', objectSchema({ uuid: { type: 'string' } })), ...writeErrors() },
    }),
  },
  [p('/applications/{uuid}/envs/{env}')]: {
    patch: coolify('coolifyEnvUpdate', 'Update an environment variable', 'PATCH /applications/{uuid}/envs with the key in the body', {
      parameters: [uuid(), { name: 'env', in: 'path', required: true, description: 'The variable’s key or uuid.', schema: { type: 'string' } }],
      requestBody: { required: true, content: { 'application/json': { schema: ref('CoolifyEnvVarInput') } } },
      responses: { 200: json('The updated variable, value masked', ref('CoolifyEnvVar')), ...writeErrors() },
    }),
    delete: coolify('coolifyEnvDelete', 'Delete an environment variable', 'DELETE /applications/{uuid}/envs/{env_uuid}', {
      parameters: [
        uuid(),
        { name: 'env', in: 'path', required: true, description: 'The variable’s key or uuid.', schema: { type: 'string' } },
        boolQuery('is_preview', 'Delete the preview variable of that key.'),
      ],
      responses: { 200: json('Deleted', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/applications/{uuid}/deployments')]: {
    get: coolify('coolifyApplicationDeployments', 'Deployments of an application, paged', 'GET /deployments/applications/{uuid}?skip=&take=', {
      parameters: [
        uuid(),
        { name: 'skip', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
        { name: 'take', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
      ],
      responses: { 200: json('A page, newest first', ref('CoolifyDeploymentPage')), ...readErrors() },
    }),
  },
  [p('/deployments/{uuid}')]: {
    get: coolify('coolifyDeployment', 'Deployment details', 'GET /deployments/{uuid}', {
      parameters: [uuid()],
      responses: { 200: json('The deployment', ref('CoolifyDeployment')), ...readErrors() },
    }),
  },
  [p('/deployments/{uuid}/logs')]: {
    get: coolify('coolifyDeploymentLogs', 'Deployment logs (uncached)', 'GET /deployments/{uuid} (logs)', {
      parameters: [uuid(), boolQuery('include_hidden', 'Include Coolify’s internal steps.')],
      responses: { 200: json('Parsed log entries', ref('CoolifyDeploymentLogs')), ...readErrors() },
    }),
  },
  [p('/deployments/{uuid}/cancel')]: {
    post: coolify('coolifyDeploymentCancel', 'Cancel a deployment', 'POST /deployments/{uuid}/cancel', {
      parameters: [uuid()],
      responses: { 200: json('Cancelled', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/databases')]: {
    get: coolify('coolifyDatabases', 'Databases', 'GET /databases', {
      parameters: [reveal],
      responses: { 200: json('Databases, passwords and URL credentials masked', coolifyList('Coolify databases')), ...readErrors() },
    }),
  },
  [p('/databases/{uuid}')]: {
    get: coolify('coolifyDatabase', 'Database details', 'GET /databases/{uuid}', {
      parameters: [uuid(), reveal],
      responses: { 200: json('The database, secrets masked', coolifyObject('Coolify database')), ...readErrors() },
    }),
    patch: coolify('coolifyDatabaseUpdate', 'Update database settings', 'PATCH /databases/{uuid}', {
      parameters: [uuid()],
      requestBody: body({
        type: 'object',
        properties: {
          name: { type: 'string' },
          description: { type: ['string', 'null'] },
          image: { type: 'string' },
          is_public: { type: 'boolean' },
          public_port: { type: 'integer', minimum: 1024, maximum: 65535 },
          limits_memory: { type: 'string' },
          limits_cpus: { type: 'string', description: 'Coolify’s name (not limits_cpu).' },
        },
      }),
      responses: { 200: json('Updated', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/databases/{uuid}/start')]: {
    post: coolify('coolifyDatabaseStart', 'Start a database', 'POST /databases/{uuid}/start', {
      parameters: [uuid()],
      responses: { 200: json('Start queued', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/databases/{uuid}/stop')]: {
    post: coolify('coolifyDatabaseStop', 'Stop a database', 'POST /databases/{uuid}/stop?docker_cleanup=', {
      parameters: [uuid()],
      requestBody: body(flags('docker_cleanup')),
      responses: { 200: json('Stop queued', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/databases/{uuid}/restart')]: {
    post: coolify('coolifyDatabaseRestart', 'Restart a database', 'POST /databases/{uuid}/restart', {
      parameters: [uuid()],
      responses: { 200: json('Restart queued', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/databases/{uuid}/backup')]: {
    post: coolify('coolifyDatabaseBackup', 'Back up now', 'PATCH /databases/{uuid}/backups/{schedule} {backup_now: true} (or POST /databases/{uuid}/backups)', {
      parameters: [uuid()],
      requestBody: body({
        type: 'object',
        properties: {
          backup_uuid: { type: 'string', description: 'Schedule to run; default the first enabled one.' },
          frequency: { type: 'string', description: 'Creates a schedule (cron or every_minute/hourly/daily/weekly/monthly/yearly) when there is none.' },
        },
      }),
      responses: { 200: json('Backup started', ref('CoolifyBackupResult')), ...writeErrors() },
    }),
  },
  [p('/databases/{uuid}/backups')]: {
    get: coolify('coolifyDatabaseBackups', 'Backup schedules with their executions', 'GET /databases/{uuid}/backups', {
      parameters: [uuid()],
      responses: { 200: json('Schedules, each with `executions`', coolifyList('Coolify backup schedules')), ...readErrors() },
    }),
  },
  [p('/servers')]: {
    get: coolify('coolifyServers', 'Servers', 'GET /servers', {
      responses: { 200: json('Servers (tokens masked)', coolifyList('Coolify servers')), ...listErrors() },
    }),
  },
  [p('/servers/{uuid}')]: {
    get: coolify('coolifyServer', 'Server details', 'GET /servers/{uuid}', {
      parameters: [uuid()],
      responses: { 200: json('The server (tokens masked)', coolifyObject('Coolify server')), ...readErrors() },
    }),
  },
  [p('/servers/{uuid}/resources')]: {
    get: coolify('coolifyServerResources', 'Resources on a server', 'GET /servers/{uuid}/resources', {
      parameters: [uuid()],
      responses: { 200: json('`[{id, uuid, name, type, status, …}]`', coolifyList('Resources')), ...readErrors() },
    }),
  },
  [p('/servers/{uuid}/domains')]: {
    get: coolify('coolifyServerDomains', 'Domains on a server, by IP', 'GET /servers/{uuid}/domains', {
      parameters: [uuid(), { name: 'uuid', in: 'query', required: false, description: 'Only this application.', schema: { type: 'string' } }],
      responses: {
        200: json('`[{ip, domains}]`', { type: 'array', items: objectSchema({ ip: { type: 'string' }, domains: { type: 'array', items: { type: 'string' } } }) }),
        ...readErrors(),
      },
    }),
  },
  [p('/servers/{uuid}/validate')]: {
    post: coolify('coolifyServerValidate', 'Validate the server connection', 'POST /servers/{uuid}/validate', {
      parameters: [uuid()],
      responses: { 200: json('Validation started', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/services')]: {
    get: coolify('coolifyServices', 'Services', 'GET /services', {
      responses: { 200: json('Services', coolifyList('Coolify services')), ...listErrors() },
    }),
  },
  [p('/services/{uuid}')]: {
    get: coolify('coolifyService', 'Service details', 'GET /services/{uuid}', {
      parameters: [uuid(), reveal],
      responses: { 200: json('The service, secrets masked', coolifyObject('Coolify service')), ...readErrors() },
    }),
  },
  [p('/services/{uuid}/start')]: {
    post: coolify('coolifyServiceStart', 'Start a service', 'POST /services/{uuid}/start', {
      parameters: [uuid()],
      responses: { 200: json('Start queued', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/services/{uuid}/stop')]: {
    post: coolify('coolifyServiceStop', 'Stop a service', 'POST /services/{uuid}/stop?docker_cleanup=', {
      parameters: [uuid()],
      requestBody: body(flags('docker_cleanup')),
      responses: { 200: json('Stop queued', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/services/{uuid}/restart')]: {
    post: coolify('coolifyServiceRestart', 'Restart a service', 'POST /services/{uuid}/restart?latest=', {
      parameters: [uuid()],
      requestBody: body(flags('latest')),
      responses: { 200: json('Restart queued', ref('CoolifyMessage')), ...writeErrors() },
    }),
  },
  [p('/projects')]: {
    get: coolify('coolifyProjects', 'Projects', 'GET /projects', {
      responses: { 200: json('Projects', coolifyList('Coolify projects')), ...listErrors() },
    }),
  },
  [p('/projects/{uuid}')]: {
    get: coolify('coolifyProject', 'Project with its environments', 'GET /projects/{uuid}', {
      parameters: [uuid()],
      responses: { 200: json('The project', coolifyObject('Coolify project with `environments`')), ...readErrors() },
    }),
  },
  [p('/projects/{uuid}/environments')]: {
    get: coolify('coolifyProjectEnvironments', 'Environments of a project', 'GET /projects/{uuid}/environments', {
      parameters: [uuid()],
      responses: { 200: json('Environments', coolifyList('Coolify environments')), ...readErrors() },
    }),
  },
  [p('/stats')]: {
    get: op('Coolify', 'coolifyStats', 'Aggregated dashboard data', {
      description: 'Coolify reachability and version, counts by status, recent deployments. No secrets. Always 200: a Coolify outage is reported in `coolify`.',
      responses: { 200: json('Dashboard data', ref('CoolifyDashboardStats')), ...errorResponses(401) },
    }),
  },
  [p('/ops/{app_uuid}/status')]: {
    get: op('Coolify ops proxy', 'coolifyOpsStatus', 'Is the ops API configured, reachable, healthy?', {
      description:
        'Checks what the proxy needs without forwarding anything else: an https domain, an OPS_TOKEN that can be ' +
        'read, a valid OPS_PREFIX, an allowed target, and a health call the ops API accepts and answers healthy. ' +
        '`reason` names the first thing missing.',
      parameters: [appParam],
      responses: { 200: json('Always 200; `reason` explains what is missing', ref('CoolifyOpsStatus')), ...errorResponses(401, 403, 404, 422, 502, 503, 504) },
    }),
  },
  [p('/ops/{app_uuid}/health')]: opsRead('coolifyOpsHealth', 'Health report (503 when unhealthy, passed through)', 'OpsHealthReport', 'GET /health', 'health:read'),
  [p('/ops/{app_uuid}/stats')]: opsRead('coolifyOpsStats', 'CPU, memory, disk', 'OpsStatsReport', 'GET /stats', 'stats:read'),
  [p('/ops/{app_uuid}/logs')]: opsRead('coolifyOpsLogs', 'Log files', 'OpsLogFiles', 'GET /logs', 'logs:read'),
  [p('/ops/{app_uuid}/logs/{file}')]: opsRead('coolifyOpsLogRead', 'Log entries', 'OpsLogRead', 'GET /logs/{file}', 'logs:read', [
    { name: 'file', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$' } },
    { name: 'level', in: 'query', required: false, schema: { type: 'string', enum: ['TRACE', 'DEBUG', 'INFO', 'WARN', 'WARNING', 'ERROR', 'FATAL'] } },
    { name: 'search', in: 'query', required: false, schema: { type: 'string', maxLength: 500 } },
    { name: 'lines', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
  ]),
  [p('/ops/{app_uuid}/queue')]: opsRead('coolifyOpsQueue', 'Queue status', 'OpsQueueStatus', 'GET /queue', 'queue:read'),
  [p('/ops/{app_uuid}/queue/failed')]: opsRead('coolifyOpsFailedJobs', 'Failed jobs', 'OpsFailedJobPage', 'GET /queue/failed', 'queue:read', [
    { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
    { name: 'per_page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } },
  ]),
  [p('/ops/{app_uuid}/queue/retry/{id}')]: {
    post: opsWrite('coolifyOpsRetry', 'Retry one failed job', 'OpsRetryResult', 'POST /queue/retry/{id}', 'queue:retry', {
      parameters: [appParam, { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
    }),
  },
  [p('/ops/{app_uuid}/queue/retry-all')]: {
    post: opsWrite('coolifyOpsRetryAll', 'Retry every failed job', 'OpsRetryResult', 'POST /queue/retry-all', 'queue:retry', {
      parameters: [appParam],
    }),
  },
  [p('/ops/{app_uuid}/console')]: {
    ...opsRead('coolifyOpsConsoleCommands', 'Allowlisted console commands', 'OpsConsoleCommands', 'GET /console', 'console:list'),
    post: opsWrite(
      'coolifyOpsConsoleRun',
      'Run a console command (a command outside the allowlist stays a 403)',
      'OpsConsoleResult',
      'POST /console',
      'console:execute',
      {
        parameters: [appParam],
        requestBody: { required: true, content: { 'application/json': { schema: ref('OpsConsoleRunRequest') } } },
      }
    ),
  },
}
