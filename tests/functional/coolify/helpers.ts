import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { ApiRequest } from '@japa/api-client'
import type { Group } from '@japa/runner/core'
import { sessionApiClient } from '@adonisjs/session/plugins/api_client'
import { authApiClient } from '@adonisjs/auth/plugins/api_client'
import { shieldApiClient } from '@adonisjs/shield/plugins/api_client'
import AdminUser from '#models/admin_user'
import AuditLog from '#models/audit_log'
import { CoolifyClient, type CoolifyClientOptions } from '#services/coolify/coolify_client'
import { SIM_UUIDS, start, type CoolifySimulator, type SimulatorOptions } from '#simulators/coolify/simulator'
import { dashboardApiPrefix } from '#config/surfaces'

export { SIM_UUIDS } from '#simulators/coolify/simulator'

/**
 * The session, auth (`loginAs`) and CSRF (`withCsrfToken`) helpers of the Japa API client,
 * installed once unless tests/bootstrap.ts already registers them.
 */
async function ensureApiClientPlugins() {
  const proto = ApiRequest.prototype as unknown as Record<string, unknown>
  const noConfig = {} as never
  if (!('withSession' in proto)) await sessionApiClient(app)(noConfig)
  if (!('loginAs' in proto)) await authApiClient(app)(noConfig)
  if (!('withCsrfToken' in proto)) await shieldApiClient()(noConfig)
}
await ensureApiClientPlugins()

/**
 * COOLIFY_OPS_ALLOW_PRIVATE for the group: the ops APIs of the tests (this server, hostile
 * upstreams) listen on loopback over plain http, which the proxy refuses by default.
 */
export function allowPrivateOpsTargets(group: Group, allow = true) {
  group.setup(() => {
    const previous = env.get('COOLIFY_OPS_ALLOW_PRIVATE')
    env.set('COOLIFY_OPS_ALLOW_PRIVATE', allow)
    return () => env.set('COOLIFY_OPS_ALLOW_PRIVATE', previous ?? false)
  })
}

/** `/coolify/api` + path. */
export const api = (path: string) => `${dashboardApiPrefix}${path}`

/** A fresh admin account. */
export async function createAdmin() {
  return AdminUser.create({ email: `admin-${randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery' })
}

/** Audit rows of one action, oldest first. */
export async function auditRows(action: string) {
  return AuditLog.query().where('action', action).orderBy('id', 'asc')
}

export interface SimulatorHandle {
  sim: CoolifySimulator
  /** Requests recorded since the current test began. */
  requests(): CoolifySimulator['requests']
  /** The last recorded request (the upstream call under test). */
  last(): CoolifySimulator['requests'][number]
}

/**
 * Starts a Coolify simulator for the group and points the container's CoolifyClient at it.
 * Each test starts with an empty request log, no faults and an empty GET cache.
 */
export function useSimulator(
  group: Group,
  options: SimulatorOptions = {},
  client: Partial<CoolifyClientOptions> = {}
): SimulatorHandle {
  const handle = { sim: null as unknown as CoolifySimulator, mark: 0 }
  group.setup(async () => {
    handle.sim = await start(options)
    const make = () =>
      new CoolifyClient({ baseUrl: handle.sim.url, token: handle.sim.token, projectUuid: '', retries: 0, ...client })
    app.container.swap(CoolifyClient, make)
    return async () => {
      app.container.restore(CoolifyClient)
      await handle.sim.close()
    }
  })
  group.each.setup(async () => {
    handle.sim.clearFaults()
    await new CoolifyClient({ baseUrl: handle.sim.url, token: handle.sim.token }).invalidate()
    handle.mark = handle.sim.requests.length
  })
  return {
    get sim() {
      return handle.sim
    },
    requests: () => handle.sim.requests.slice(handle.mark),
    last: () => handle.sim.requests.at(-1)!,
  }
}

export interface FakeOpsAnswer {
  status?: number
  headers?: Record<string, string>
  body?: string
}

export interface FakeOpsApi {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** Every request received, with its Authorization header (the ops token, if sent). */
  requests: Array<{ method: string; url: string; authorization: string | null }>
  /** What the next requests get; a function of the request path (and query). */
  answer: (url: string) => FakeOpsAnswer
  close(): Promise<void>
}

/**
 * A stand-in for a deployed application's ops API on loopback: records every request and
 * answers whatever the test sets, e.g. a hostile server answering HTML with a script.
 */
export async function startFakeOpsApi(answer: FakeOpsApi['answer'] = () => ({ body: '{}' })): Promise<FakeOpsApi> {
  const api: FakeOpsApi = { url: '', requests: [], answer, close: async () => {} }
  const server = createServer((req, res) => {
    api.requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', authorization: req.headers.authorization ?? null })
    const { status = 200, headers = { 'Content-Type': 'application/json' }, body = '' } = api.answer(req.url ?? '/')
    res.writeHead(status, headers).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  api.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return api
}

/** Points the simulator's HRVault application at `fqdn` with this OPS_PREFIX (before any read of it). */
export function pointOpsTarget(sim: CoolifySimulator, fqdn: string, prefix: string) {
  const application = sim.state.applications.find((a) => a.uuid === SIM_UUIDS.app)!
  application.fqdn = fqdn
  for (const variable of sim.state.envs[SIM_UUIDS.app]) {
    if (variable.key === 'OPS_PREFIX') Object.assign(variable, { value: prefix, real_value: prefix })
  }
}
