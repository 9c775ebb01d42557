import type { Answer, Call } from '#simulators/openapi_examples/http'
import type { Credentials, OperationRef, Recipe } from '#simulators/openapi_examples/capture'
import { SIM_UUIDS } from '#simulators/coolify/seed'

/** Everything the recipes fill paths and bodies from: real ids read back from the synced data. */
export interface RecipeContext {
  credentials: Credentials
  /** The synced demo user (Polar user id). */
  user: string
  /** A user to erase (DELETE /users/{user_id}). */
  erasable: string
  /** The Polar token of `user` (a trigger for the same account), and one of another account. */
  providerToken: string
  strangerToken: string
  dates: { sleep: string; activity: string; activitySamples: string; heartRate: string }
  exerciseId: number
  runId: number
  logFile: string
  /** Failed jobs of the queue, one per retry operation. */
  failedJobIds: number[]
  /** An environment variable created by the capture (PATCH and DELETE use it). */
  envRef: { current: string | null }
  /** A 429 of the operation: a fresh credential and a budget of one request. */
  burst(ref: OperationRef, call: Call): Promise<Answer | null>
  /** An answer of the Coolify simulator failing the next upstream call (status, body, delay). */
  coolifyFault(
    call: Call,
    fault: { status?: number; body?: unknown; delayMs?: number; headers?: Record<string, string> },
    options?: { persist?: boolean }
  ): Promise<Answer>
  /** The answer of a dashboard not restricted to one Coolify project (a real 404 of Coolify's). */
  unscoped(call: Call): Promise<Answer>
  /** A signed-in admin for the operation (each ops-proxy mutation spends its own per-admin budget). */
  adminFor(ref: OperationRef): Credentials['admin']
  /** A browser session that is not signed in, with its XSRF cookie (a 401, not a CSRF 403). */
  guest: Credentials['admin']
  /** A call about the synced user made while that user's sync lock is held (409). */
  whileSyncing(call: Call): Promise<Answer>
  /** The answer of a server without COOLIFY_URL and COOLIFY_TOKEN. */
  withoutCoolify(call: Call): Promise<Answer>
  /** Answers shared by every operation of a kind (one slow timeout, a server without Coolify). */
  shared(key: string, produce: () => Promise<Answer>): Promise<Answer>
  /** The sync trigger's answers, provoked in order on the simulator. */
  trigger: Partial<Record<number, () => Promise<Answer>>>
}

const fill = (path: string, values: Record<string, string | number>) =>
  path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no value for {${name}} in ${path}`)
    return encodeURIComponent(String(values[name]))
  })

const hasParam = (ref: OperationRef, name: string, where = 'query') =>
  (ref.operation.parameters ?? []).some((p: { name: string; in: string }) => p.name === name && p.in === where)

/** The Coolify resource a `{uuid}` stands for, by the path segment before it; `other` is outside the project. */
function coolifyUuid(path: string, other = false): string {
  const kind = /\/(applications|databases|deployments|projects|servers|services)\/\{uuid\}/.exec(path)?.[1]
  switch (kind) {
    case 'applications':
      return other ? SIM_UUIDS.appOther : SIM_UUIDS.app
    case 'databases':
      return other ? SIM_UUIDS.mysqlOther : SIM_UUIDS.postgres
    case 'deployments':
      return other ? SIM_UUIDS.deploymentOther : path.endsWith('/cancel') ? SIM_UUIDS.deploymentRunning : SIM_UUIDS.deploymentFinished
    case 'projects':
      return other ? SIM_UUIDS.otherProject : SIM_UUIDS.project
    case 'servers':
      return other ? SIM_UUIDS.serverOther : SIM_UUIDS.server
    case 'services':
      return other ? SIM_UUIDS.serviceOther : SIM_UUIDS.service
    default:
      return SIM_UUIDS.app
  }
}

/** The `{date}` of a data route: a day the synced user has data of that kind. */
function dateFor(path: string, ctx: RecipeContext) {
  if (path.includes('/activity-samples/')) return ctx.dates.activitySamples
  if (path.includes('/activity/')) return ctx.dates.activity
  if (path.includes('/heart-rate/')) return ctx.dates.heartRate
  return ctx.dates.sleep
}

function pathValues(ref: OperationRef, ctx: RecipeContext, overrides: Record<string, string | number> = {}) {
  const isOps = ref.surface === 'ops' || ref.path.includes('/ops/{app_uuid}/')
  return {
    user_id: ref.method === 'DELETE' && ref.path === '/api/v1/users/{user_id}' ? ctx.erasable : ctx.user,
    date: dateFor(ref.path, ctx),
    id: isOps ? ctx.failedJobIds[ref.surface === 'ops' ? 0 : 1] : ctx.exerciseId,
    run_id: ctx.runId,
    metric_name: 'hrv_rmssd',
    pattern_name: 'sleep_hrv_correlation',
    value: 18,
    type: 'sleep',
    file: ctx.logFile,
    uuid: coolifyUuid(ref.path),
    app_uuid: SIM_UUIDS.app,
    env: ctx.envRef.current ?? 'EXAMPLE_FLAG',
    package: 'swagger-ui',
    ...(ref.surface === 'public' ? { file: 'swagger-ui.css' } : {}),
    ...overrides,
  }
}

function authHeaders(ref: OperationRef, ctx: RecipeContext): Record<string, string> {
  const scheme = Object.keys(ref.operation.security?.[0] ?? {})[0]
  if (scheme === 'apiKey') return { 'X-API-Key': ctx.credentials.serviceKey }
  if (scheme === 'opsToken') return { Authorization: `Bearer ${ctx.credentials.opsToken}` }
  if (scheme === 'adminSession') return ctx.adminFor(ref).headers(ref.method)
  return {}
}

/** Bodies of the mutations: what an integrator would send. */
const BODIES: Record<string, unknown> = {
  coolifyApplicationUpdate: { description: 'HRVault production: Polar sync and analytics API' },
  coolifyEnvCreate: { key: 'EXAMPLE_FLAG', value: 'on', is_runtime: true },
  coolifyEnvUpdate: { value: 'off' },
  coolifyDatabaseUpdate: { description: 'HRVault PostgreSQL (daily backups at 03:00)' },
  opsConsoleRun: { command: 'migration:status' },
  coolifyOpsConsoleRun: { command: 'sync:status' },
  registerOAuthClient: {
    client_name: 'Claude',
    redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  },
}

/** The success call of an operation, with its parameters filled from the context. */
export function successCall(ref: OperationRef, ctx: RecipeContext, overrides: Record<string, string | number> = {}): Call {
  const query: Record<string, string | number> = {}
  if (hasParam(ref, 'days')) query.days = 30
  if (ref.id === 'coolifyApplicationLogs') query.lines = 5
  if (ref.id === 'opsLogRead' || ref.id === 'coolifyOpsLogRead') query.lines = 5
  const body = BODIES[ref.id]
  return {
    method: ref.method,
    path: fill(ref.path, pathValues(ref, ctx, overrides)),
    query,
    headers: authHeaders(ref, ctx),
    ...(body !== undefined ? { json: body } : ref.method !== 'GET' && ref.surface === 'coolify' ? { json: {} } : {}),
  }
}

const without = (call: Call, header: string): Call => {
  const headers = { ...call.headers }
  for (const name of Object.keys(headers)) if (name.toLowerCase() === header.toLowerCase()) delete headers[name]
  return { ...call, headers }
}

/** The 422 of an operation: one parameter out of its range or malformed. */
function invalidCall(ref: OperationRef, ctx: RecipeContext, call: Call): Call {
  if (ref.path.includes('{date}')) return { ...call, path: fill(ref.path, pathValues(ref, ctx, { date: '2026-02-30' })) }
  if (hasParam(ref, 'days')) return { ...call, query: { ...call.query, days: 0 } }
  if (hasParam(ref, 'limit')) return { ...call, query: { ...call.query, limit: 0 } }
  if (ref.path.includes('{run_id}')) return { ...call, path: fill(ref.path, pathValues(ref, ctx, { run_id: 'latest' })) }
  if (ref.path.includes('{value}')) return { ...call, path: fill(ref.path, pathValues(ref, ctx, { value: 'high' })) }
  if (ref.path.includes('{id}')) return { ...call, path: fill(ref.path, pathValues(ref, ctx, { id: 'first' })) }
  if (hasParam(ref, 'raw')) return { ...call, query: { ...call.query, raw: 'yes' } }
  if (hasParam(ref, 'lines')) return { ...call, query: { ...call.query, lines: 0 } }
  if (hasParam(ref, 'per_page')) return { ...call, query: { ...call.query, per_page: 0 } }
  if (ref.id === 'opsConsoleRun' || ref.id === 'coolifyOpsConsoleRun') return { ...call, json: { command: '' } }
  if (ref.path.includes('{user_id}')) return { ...call, path: fill(ref.path, pathValues(ref, ctx, { user_id: 'user 42!' })) }
  if (ref.path.includes('{app_uuid}')) return { ...call, path: fill(ref.path, pathValues(ref, ctx, { app_uuid: 'app uuid!' })) }
  if (ref.path.includes('{uuid}')) return { ...call, path: fill(ref.path, pathValues(ref, ctx, { uuid: 'not a uuid!' })) }
  if (hasParam(ref, 'reveal')) return { ...call, query: { ...call.query, reveal: 'maybe' } }
  return { ...call, query: { ...call.query, unexpected: 1 } }
}

/** The 404 of an operation: the most specific thing that can be missing. */
function notFoundCall(ref: OperationRef, ctx: RecipeContext, call: Call): Call {
  const missing = (values: Record<string, string | number>) => ({ ...call, path: fill(ref.path, pathValues(ref, ctx, values)) })
  if (ref.surface === 'api') {
    if (ref.path.includes('{metric_name}')) return missing({ metric_name: 'vo2_max' })
    if (ref.path.includes('{pattern_name}')) return missing({ pattern_name: 'stress_trend' })
    if (ref.path.includes('{run_id}')) return missing({ run_id: 999_999 })
    if (ref.path.includes('{id}')) return missing({ id: 999_999 })
    if (ref.path.includes('{date}')) return missing({ date: '2019-01-01' })
    return missing({ user_id: '10000001' })
  }
  if (ref.surface === 'ops') {
    if (ref.path.includes('{file}')) return missing({ file: 'hrvault-2019-01-01.log' })
    return missing({ id: 999_999 })
  }
  if (ref.surface === 'public') return missing({ package: 'redoc', file: 'redoc.min.js' })
  if (ref.path.includes('/envs/{env}')) return missing({ env: 'NO_SUCH_VARIABLE' })
  if (ref.path.includes('/ops/{app_uuid}/logs/{file}')) return missing({ file: 'hrvault-2019-01-01.log' })
  if (ref.path.includes('/ops/{app_uuid}/queue/retry/{id}')) return missing({ id: 999_999 })
  return missing({ uuid: 'zz0unknown0000000000001', app_uuid: 'zz0unknown0000000000001' })
}

/** A Coolify-style refusal of the upstream call, per status (what HRVault passes through). */
const COOLIFY_REFUSALS: Record<number, { message: string; headers?: Record<string, string> }> = {
  400: { message: 'Invalid request: the value of "instant_deploy" must be a boolean.' },
  409: { message: 'A deployment is already queued or in progress for this resource.' },
  429: { message: 'Too Many Attempts.', headers: { 'Retry-After': '60' } },
}

/** The served document cut to its head and one operation. */
function openApiExcerpt(document: any) {
  if (!document?.openapi) return document
  const { title, version } = document.info
  return { openapi: document.openapi, info: { title, version }, paths: { '/health': document.paths['/health'] } }
}

export function recipeFor(ref: OperationRef, ctx: RecipeContext): Recipe {
  const base = () => successCall(ref, ctx)
  const problems: Recipe['problems'] = {}

  if (ref.surface === 'public') {
    problems[404] = () => notFoundCall(ref, ctx, base())
    // The JSON answers are examples; the pages and their assets have none.
    return { success: ref.id === 'getHealth' || ref.id === 'getOpenApi' ? base : undefined, problems, transform: openApiExcerpt }
  }
  if (ref.surface === 'oauth') {
    problems[429] = () => ctx.burst(ref, base())
    const captured = ref.path.startsWith('/.well-known/') || ref.id === 'registerOAuthClient'
    return { success: captured ? base : undefined, problems }
  }

  problems[401] = () =>
    ref.surface === 'coolify' ? { ...base(), headers: ctx.guest.headers(ref.method) } : without(without(base(), 'X-API-Key'), 'Authorization')
  problems[404] = () => notFoundCall(ref, ctx, base())
  problems[422] = () => invalidCall(ref, ctx, base())
  problems[429] = () => ctx.burst(ref, base())

  if (ref.surface === 'api') {
    problems[403] = () => ({ ...base(), headers: { 'X-API-Key': ctx.credentials.otherUserKey } })
    if (ref.id === 'triggerSync') return { problems: { ...problems, ...ctx.trigger } }
    // The erasure has run by then: the 409 asks for the synced user, whose sync lock is held.
    if (ref.id === 'deleteUser') problems[409] = () => ctx.whileSyncing({ ...base(), path: fill(ref.path, { user_id: ctx.user }) })
  }
  if (ref.surface === 'ops') {
    problems[400] = () => ({ ...base(), json: undefined, raw: '{"command": "migration:status",' })
    // The limited tokens hold one scope each: stats:read, or health:read for the stats route.
    const limited = ref.id === 'opsStats' ? ctx.credentials.opsHealthOnlyToken : ctx.credentials.opsLimitedToken
    problems[403] = () => ({ ...base(), headers: { Authorization: `Bearer ${limited}` } })
  }
  if (ref.surface === 'coolify') {
    const proxy = ref.path.includes('/ops/{app_uuid}')
    const kind = /\/(applications|databases|deployments|projects|servers|services)\b/.exec(ref.path)?.[1] ?? 'resource'
    const noun = kind.replace(/s$/, '').replace(/^./, (c) => c.toUpperCase())
    const scoped = ref.path.includes('{uuid}') || proxy
    problems[403] = () =>
      scoped
        ? { ...base(), path: fill(ref.path, pathValues(ref, ctx, { uuid: coolifyUuid(ref.path, true), app_uuid: SIM_UUIDS.appOther })) }
        : ctx.coolifyFault(base(), { status: 403, body: { message: 'This action is unauthorized.' } })
    problems[404] = () =>
      scoped || ref.path.includes('{env}')
        ? ctx.unscoped(notFoundCall(ref, ctx, base()))
        : ctx.coolifyFault(base(), { status: 404, body: { message: `${noun} not found.` } })
    problems[400] =
      ref.method === 'GET'
        ? () => ctx.coolifyFault(base(), { status: 400, body: { message: COOLIFY_REFUSALS[400].message } })
        : () => ({ ...base(), json: undefined, raw: '{"description": ' })
    problems[409] = proxy
      ? () => ({ ...base(), path: fill(ref.path, pathValues(ref, ctx, { app_uuid: SIM_UUIDS.appNoOps })) })
      : () => ctx.coolifyFault(base(), { status: 409, body: { message: COOLIFY_REFUSALS[409].message } })
    if (!proxy) {
      problems[429] = () => ctx.coolifyFault(base(), { status: 429, body: { message: COOLIFY_REFUSALS[429].message }, headers: COOLIFY_REFUSALS[429].headers })
    }
    problems[502] = () => ctx.coolifyFault(base(), { status: 500, body: { message: 'Server Error' } })
    // Coolify answering nothing for longer than the 15 s deadline: one slow call serves every operation.
    problems[504] = () =>
      ctx.shared('coolify-504', () =>
        ctx.coolifyFault({ ...base(), path: '/coolify/api/servers', method: 'GET', headers: ctx.adminFor(ref).headers('GET') }, { delayMs: 16_000 }, { persist: true })
      )
    problems[503] = () => ctx.shared('coolify-503', () => ctx.withoutCoolify({ ...base(), path: '/coolify/api/servers', method: 'GET' }))
  }
  // A binary download (the takeout ZIP) has no example to capture.
  const binary = Object.values<any>(ref.operation.responses?.['200']?.content ?? {}).every((media) => media.schema?.format === 'binary')
  return { success: binary && ref.operation.responses?.['200'] ? undefined : base, problems }
}
