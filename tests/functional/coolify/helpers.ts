import { randomBytes } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import { ApiRequest } from '@japa/api-client'
import type { Group } from '@japa/runner/core'
import { sessionApiClient } from '@adonisjs/session/plugins/api_client'
import { authApiClient } from '@adonisjs/auth/plugins/api_client'
import { shieldApiClient } from '@adonisjs/shield/plugins/api_client'
import AdminUser from '#models/admin_user'
import AuditLog from '#models/audit_log'
import { CoolifyClient, type CoolifyClientOptions } from '#services/coolify/coolify_client'
import { start, type CoolifySimulator, type SimulatorOptions } from '#services/coolify_simulator/simulator'
import { dashboardApiPrefix } from '#config/surfaces'

export { SIM_UUIDS } from '#services/coolify_simulator/simulator'

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
