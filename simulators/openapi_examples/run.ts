import { randomBytes } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import FailedJob from '#models/failed_job'
import User from '#models/user'
import SyncUserJob from '#jobs/sync_user_job'
import { ApiKeyService } from '#services/auth/api_key_service'
import { AdminAccountService } from '#services/admin/admin_account_service'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { OpenApiDocumentService } from '#services/docs/openapi_document_service'
import { PolarClientFactory } from '#services/polar/polar_client_factory'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { ProviderRateLimitService } from '#services/sync/provider_rate_limit_service'
import { connectDemoUser } from '#simulators/demo_connector'
import lock from '@adonisjs/lock/services/main'
import { userSyncLockKey } from '#services/sync/user_sync_service'
import type { CoolifySimulator } from '#simulators/coolify/simulator'
import type { PolarSimulator } from '#simulators/polar/simulator'
import { AdminSession, send, type Answer, type Call } from '#simulators/openapi_examples/http'
import { ExampleRecorder, operationsOf, type ExamplesFile, type OperationRef } from '#simulators/openapi_examples/capture'
import { recipeFor, successCall, type RecipeContext } from '#simulators/openapi_examples/recipes'
import { captureWebhook } from '#simulators/openapi_examples/webhooks'

interface RunOptions {
  baseUrl: string
  polar: PolarSimulator
  coolify: CoolifySimulator
  opsToken: string
  opsLimitedToken: string
  opsHealthOnlyToken: string
}

const ADMIN = { email: 'admin@hrvault.example.com', password: 'correct horse battery staple' }

async function eventually<T>(check: () => Promise<T | null | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const value = await check()
    if (value) return value
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`condition not met within ${ms} ms`)
}

/** Runs `work` with environment values changed (typed as the env schema parses them), then puts the previous ones back. */
async function withEnv<T>(values: Record<string, string | number>, work: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(values).map((key) => [key, env.get(key as any)]))
  for (const [key, value] of Object.entries(values)) env.set(key as any, value as any)
  try {
    return await work()
  } finally {
    for (const [key, value] of Object.entries(previous)) {
      env.set(key as any, value as any)
      if (value === undefined) delete process.env[key]
    }
  }
}

/** GETs first, then writes; the erasure last; per-id retries before retry-all. */
function order(ref: OperationRef) {
  const method = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].indexOf(ref.method)
  const late = ref.path.includes('retry-all') || ref.id === 'deleteUser' ? 1 : 0
  // Resources are stopped before they are started again (a start of a running one is refused).
  const path = ref.path.replace(/\/stop$/, '/sta')
  return `${late}${method}${path}`
}

export async function captureAll(options: RunOptions): Promise<ExamplesFile> {
  const { baseUrl, polar, coolify } = options
  // Retries of failed Polar calls a few ms apart: the problems provoked below need no real back-off.
  app.container.swap(
    PolarClientFactory,
    () => new PolarClientFactory({ baseUrl: polar.url, authUrl: polar.authUrl, tokenUrl: polar.tokenUrl, retryDelayMs: 5, timeoutMs: 5000 })
  )

  const demo = await connectDemoUser({ login: 'demo-athlete', days: 90, appUrl: env.get('APP_URL')! })
  const former = await connectDemoUser({ login: 'former-athlete', days: 7, appUrl: env.get('APP_URL')! })
  const keys = await app.container.make(ApiKeyService)
  const serviceKey = (await keys.create('analytics-dashboard', null)).plain
  const partner = await User.create({ externalId: '40217785', isActive: true })
  const otherUserKey = (await keys.create('partner-app', partner.externalId)).plain
  const admins = await app.container.make(AdminAccountService)
  let adminCount = 0
  // Admins are created as needed: the ops proxy's mutations are budgeted per admin.
  const signedInAdmin = async () => {
    const email = adminCount++ === 0 ? ADMIN.email : `operator${adminCount}@hrvault.example.com`
    await admins.create(email, ADMIN.password)
    const session = new AdminSession(baseUrl)
    await session.login(email, ADMIN.password)
    return session
  }
  const admin = await signedInAdmin()
  const guest = new AdminSession(baseUrl)
  await guest.visit()

  const api = (path: string, query: Record<string, string | number> = {}) =>
    send(baseUrl, { method: 'GET', path: `/api/v1/users/${demo.userId}${path}`, query, headers: { 'X-API-Key': serviceKey } })
  const firstDate = async (path: string, key = 'date') => {
    const rows = (await api(path, { days: 30 })).json as Array<Record<string, string>>
    if (!rows?.length) throw new Error(`no ${path} rows to take an example date from`)
    return rows[0][key]
  }
  const exercises = (await api('/exercises', { days: 30 })).json as Array<{ id: number }>
  let exerciseId = exercises[0].id
  for (const exercise of exercises) {
    const detail = (await api(`/exercises/${exercise.id}`)).json as { has_route: boolean | null }
    if (detail.has_route) {
      exerciseId = exercise.id
      break
    }
  }
  const runs = (await api('/sync/runs')).json as Array<{ run_id: number }>
  const logs = await send(baseUrl, { method: 'GET', path: '/ops/logs', headers: { Authorization: `Bearer ${options.opsToken}` } })

  const tokens = await app.container.make(ProviderTokenService)
  const demoUser = (await User.findByOrFail('externalId', demo.userId))!
  const providerToken = (await tokens.tokenFor(demoUser))!
  const failedJobIds = await failedJobs(polar, 4)

  const document = await new OpenApiDocumentService().document()
  const refs = operationsOf(document).sort((a, b) => order(a).localeCompare(order(b)))
  const proxyAdmins = new Map<string, AdminSession>()
  for (const ref of refs) {
    if (ref.method !== 'GET' && ref.path.includes('/ops/{app_uuid}/')) proxyAdmins.set(ref.id, await signedInAdmin())
  }

  const sharedAnswers = new Map<string, Answer>()
  const ctx: RecipeContext = {
    credentials: {
      serviceKey,
      otherUserKey,
      opsToken: options.opsToken,
      opsLimitedToken: options.opsLimitedToken,
      opsHealthOnlyToken: options.opsHealthOnlyToken,
      admin,
    },
    adminFor: (ref) => proxyAdmins.get(ref.id) ?? admin,
    guest,
    unscoped: (call) => withEnv({ COOLIFY_PROJECT_UUID: '' }, () => send(baseUrl, call)),
    async whileSyncing(call) {
      const held = lock.createLock(userSyncLockKey(demoUser.id), '1m')
      await held.acquireImmediately()
      try {
        return await send(baseUrl, call)
      } finally {
        await held.release()
      }
    },
    user: demo.userId,
    erasable: former.userId,
    providerToken,
    strangerToken: 'stranger_bio_complete',
    dates: {
      sleep: await firstDate('/sleep'),
      activity: await firstDate('/activity'),
      activitySamples: await firstDate('/activity-samples'),
      heartRate: await firstDate('/heart-rate'),
    },
    exerciseId,
    runId: runs[0].run_id,
    logFile: (logs.json as { files: string[] }).files[0],
    failedJobIds,
    envRef: { current: 'EXAMPLE_FLAG' },
    burst: (ref, call) => burst(baseUrl, ref, call, keys, signedInAdmin),
    async coolifyFault(call, fault, faultOptions = {}) {
      await (await app.container.make(CoolifyClient)).invalidate()
      coolify.setFault('*', faultOptions.persist ? fault : { ...fault, times: 1 })
      try {
        return await send(baseUrl, call)
      } finally {
        coolify.clearFaults()
      }
    },
    withoutCoolify: (call) => withEnv({ COOLIFY_URL: '', COOLIFY_TOKEN: '' }, () => send(baseUrl, call)),
    async shared(key, produce) {
      if (!sharedAnswers.has(key)) sharedAnswers.set(key, await produce())
      return sharedAnswers.get(key)!
    },
    trigger: {},
  }

  const recorder = new ExampleRecorder(document, baseUrl)

  const trigger = refs.find((ref) => ref.id === 'triggerSync')!
  ctx.trigger = await triggerAnswers(baseUrl, trigger, ctx, polar, recorder)

  for (const ref of refs) {
    if (ref.surface === 'webhooks') {
      await captureWebhook(baseUrl, ref, recorder, polar, demo.userId, ctx.dates.sleep)
      continue
    }
    await recorder.run(ref, recipeFor(ref, ctx))
  }

  for (const line of recorder.missing) process.stdout.write(`not captured: ${line}\n`)
  for (const line of recorder.uncovered(refs)) process.stdout.write(`no example: ${line}\n`)
  // Loopback addresses of this run read as the hosts they stand for.
  const hosts: Array<[string, string]> = [
    [baseUrl, 'https://hrvault.example.com'],
    [polar.url, 'https://www.polaraccesslink.com'],
    [coolify.url, 'https://coolify.example.com'],
    [new URL(baseUrl).host, 'hrvault.example.com'],
    [new URL(polar.url).host, 'www.polaraccesslink.com'],
    [new URL(coolify.url).host, 'coolify.example.com'],
  ]
  let operations = JSON.stringify(recorder.operations)
  let problems = JSON.stringify(recorder.problems)
  for (const [from, to] of hosts) {
    operations = operations.replaceAll(from, to)
    problems = problems.replaceAll(from, to)
  }
  return {
    about: 'Examples of the served OpenAPI document, captured from real answers by `npm run openapi:examples` (Polar and Coolify simulators). Do not edit by hand.',
    generated_at: new Date().toISOString(),
    simulator_today: polar.today(),
    operations: JSON.parse(operations),
    problems: JSON.parse(problems),
  }
}

/** Failed sync jobs: Polar answers 500 to every call while they run, so each ends in the failed store. */
async function failedJobs(polar: PolarSimulator, count: number): Promise<number[]> {
  const tokens = await app.container.make(ProviderTokenService)
  polar.setFault('*', '5xx')
  try {
    for (let i = 0; i < count; i++) {
      const user = await User.create({ externalId: String(52_000_101 + i), isActive: true })
      await tokens.store(user, `failed_${i}_bio_complete`)
      await SyncUserJob.dispatch({ userId: user.id, trigger: 'scheduler' })
    }
    const failed = await eventually(async () => {
      const rows = await FailedJob.query().orderBy('id')
      return rows.length >= count ? rows : null
    })
    return failed.map((row) => row.id)
  } finally {
    polar.clearFaults()
  }
}

/** A 429: the operation called twice with a fresh credential while the budget is one request. */
async function burst(
  baseUrl: string,
  ref: OperationRef,
  call: Call,
  keys: ApiKeyService,
  signedInAdmin: () => Promise<AdminSession>
): Promise<Answer | null> {
  if (ref.surface === 'api') {
    const key = (await keys.create(`burst-${ref.id}`, null)).plain
    return withEnv({ RATE_LIMIT_REQUESTS: 1 }, async () => {
      const headers = { ...call.headers, 'X-API-Key': key }
      await send(baseUrl, { ...call, headers })
      return send(baseUrl, { ...call, headers })
    })
  }
  if (ref.surface === 'ops') {
    const token = randomBytes(24).toString('hex')
    const tokens = { ...JSON.parse(env.get('OPS_TOKENS')!), [token]: ['*'] }
    return withEnv({ OPS_TOKENS: JSON.stringify(tokens), RATE_LIMIT_REQUESTS: 1 }, async () => {
      const headers = { ...call.headers, Authorization: `Bearer ${token}` }
      await send(baseUrl, { ...call, headers })
      return send(baseUrl, { ...call, headers })
    })
  }
  // The dashboard's ops-proxy mutations (per admin) and OAuth registrations have fixed budgets: spend them.
  if (ref.surface === 'coolify') {
    const session = await signedInAdmin()
    call = { ...call, headers: session.headers(call.method) }
  }
  for (let i = 0; i < 40; i++) {
    const answer = await send(baseUrl, call)
    if (answer.status === 429) return answer
  }
  return null
}

/**
 * The trigger's answers in the order that provokes them: a sync (200), the same again within the
 * cooldown (429), a queued sync (202), another Polar account's token (409), no token (400), Polar
 * failing every call (502) and rate-limiting (503).
 */
async function triggerAnswers(baseUrl: string, ref: OperationRef, ctx: RecipeContext, polar: PolarSimulator, recorder: ExampleRecorder) {
  const call = (query: Record<string, string | number | boolean>, token: string | null): Call => {
    const base = successCall(ref, ctx)
    return { ...base, query: { days: 7, ...query }, headers: { ...base.headers, ...(token ? { 'X-Provider-Token': token } : {}) } }
  }
  const answers: Partial<Record<number, () => Promise<Answer>>> = {}
  recorder.success(ref, await send(baseUrl, call({}, ctx.providerToken)))
  const cooldown = await send(baseUrl, call({}, ctx.providerToken))
  answers[429] = async () => cooldown
  await withEnv({ SYNC_TRIGGER_COOLDOWN_SECONDS: 0 }, async () => {
    const queued = await send(baseUrl, call({ wait: false }, ctx.providerToken))
    recorder.success(ref, queued)
    const runId = (queued.json as { run_id: number }).run_id
    await eventually(async () => {
      const path = `/api/v1/users/${ctx.user}/sync/runs/${runId}`
      const run = await send(baseUrl, { method: 'GET', path, headers: { 'X-API-Key': ctx.credentials.serviceKey } })
      return (run.json as { finished_at: string | null })?.finished_at
    })
    const mismatch = await send(baseUrl, call({}, ctx.strangerToken))
    answers[409] = async () => mismatch
    const missingToken = await send(baseUrl, call({}, null))
    answers[400] = async () => missingToken
    polar.setFault('*', '5xx')
    const failed = await send(baseUrl, call({}, ctx.providerToken))
    answers[502] = async () => failed
    polar.setFault('*', '429')
    const limited = await send(baseUrl, call({}, ctx.providerToken))
    answers[503] = async () => limited
    polar.clearFaults()
    polar.resetRateLimits()
    await new ProviderRateLimitService().clear()
  })
  return answers
}
