import { readdir } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { logDir } from '#config/paths'
import { opsPrefix } from '#config/surfaces'
import { ApiKeyService } from '#services/auth/api_key_service'
import { METRIC_NAMES, PATTERN_NAMES } from '#services/analytics/metrics'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { start as startCoolify, SIM_UUIDS, type CoolifySimulator } from '#simulators/coolify/simulator'
import Exercise from '#models/exercise'
import { createUser } from '#tests/helpers/fixtures'
import { ADMIN_EMAIL, ADMIN_PASSWORD, AdminBrowser, createAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'
import { completeToken, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'
import { allRoutes, type RouteInfo } from '#tests/helpers/fuzz/routes'
import type { FuzzContext } from '#tests/helpers/fuzz/arbitraries'
import { resetRateLimits } from '#tests/helpers/fuzz/rate_limits'

export const FUZZ_TODAY = '2026-03-15'

/** Ops tokens of the hostile-input and isolation tests: one wildcard, one per scope. */
export const OPS_TEST_TOKENS = {
  wildcard: 'reliability-wildcard-token-0123456789abcdef',
  limited: 'reliability-health-only-token-0123456789',
}

/**
 * A fully wired HRVault for hostile traffic: the Polar simulator (synced
 * user with real data), the Coolify simulator whose HRVault application
 * points back at this server's ops API, API keys of every kind, ops tokens
 * and a logged-in admin browser. Raises the API rate limits so thousands of
 * requests reach the handlers instead of 429.
 */
export class FuzzEnvironment {
  polar!: SimulatorContext
  coolify!: CoolifySimulator
  browser = new AdminBrowser()
  apiKeys!: FuzzContext['apiKeys']
  alice = 'fuzz_alice'
  bob = 'fuzz_bob'
  protected restoreEnv: Array<() => void> = []

  get port() {
    return Number(env.get('PORT'))
  }

  /** Sets a variable for the run; restores its value, or `unset` (its default) when it had none. */
  protected setEnv(name: any, value: string, unset = '') {
    const previous = env.get(name)
    env.set(name, value as never)
    this.restoreEnv.push(() => env.set(name, (previous ?? unset) as never))
  }

  async start() {
    this.setEnv('RATE_LIMIT_REQUESTS', '100000000', '1000')
    this.setEnv('OPS_TOKENS', JSON.stringify({ [OPS_TEST_TOKENS.wildcard]: ['*'], [OPS_TEST_TOKENS.limited]: ['health:read'] }))
    this.setEnv('OPS_TOKEN', '')
    // The Coolify simulator's HRVault application is this server, on loopback over http.
    env.set('COOLIFY_OPS_ALLOW_PRIVATE', true)
    this.restoreEnv.push(() => env.set('COOLIFY_OPS_ALLOW_PRIVATE', false))

    this.polar = await startSimulatorContext(FUZZ_TODAY)
    this.coolify = await startCoolify({
      opsAppFqdn: `http://127.0.0.1:${this.port}`,
      opsToken: OPS_TEST_TOKENS.wildcard,
      opsPrefix,
    })
    const coolify = this.coolify
    app.container.swap(CoolifyClient, () => new CoolifyClient({ baseUrl: coolify.url, token: coolify.token, projectUuid: '', retries: 0 }))

    await createUser(this.alice)
    await createUser(this.bob)
    const keys = await app.container.make(ApiKeyService)
    const revoked = await keys.create('fuzz revoked', null)
    await keys.revoke(revoked.apiKey.prefix)
    this.apiKeys = {
      service: (await keys.create('fuzz service', null)).plain,
      scoped: (await keys.create('fuzz scoped', this.alice)).plain,
      scopedUser: this.alice,
      revoked: revoked.plain,
    }
    await createAdmin()
    await this.login()
  }

  /** Gives Alice real data through a sync from the Polar simulator. */
  async syncAlice() {
    const response = await fetch(`http://127.0.0.1:${this.port}/api/v1/users/${this.alice}/sync/trigger`, {
      method: 'POST',
      headers: { 'X-API-Key': this.apiKeys.service, 'X-Provider-Token': completeToken(this.alice) },
    })
    if (response.status !== 200) throw new Error(`fixture sync failed: ${response.status} ${await response.text()}`)
  }

  /**
   * Logs the generator's admin in. Generated requests include wrong logins and logouts (which end
   * every session of the admin), so the login throttle of this address is cleared first: the
   * generator is not what the throttle is tested on.
   */
  async login() {
    await resetLoginThrottle()
    this.browser = new AdminBrowser()
    const response = await this.browser.login(ADMIN_EMAIL, ADMIN_PASSWORD)
    if (response.status >= 400) throw new Error(`admin login failed: ${response.status}`)
  }

  session() {
    return { cookie: this.browser.cookieHeader, xsrf: this.browser.xsrf() }
  }

  /** Values per param name that pass validation and name existing things. */
  async validParams(): Promise<Record<string, string[]>> {
    const exercises = await Exercise.query().limit(3)
    const logs = await readdir(logDir).catch(() => [] as string[])
    const throwaway = await (await app.container.make(ApiKeyService)).create('fuzz throwaway', null)
    return {
      user_id: [this.alice, this.bob, 'fuzz_nobody'],
      user: [this.alice, this.bob],
      date: ['2026-03-10', '2026-03-14', '2025-01-01'],
      id: [...exercises.map((e) => String(e.id)), '1', '999999'],
      metric_name: [...METRIC_NAMES],
      pattern_name: [...PATTERN_NAMES],
      value: ['45.5', '60', '0'],
      uuid: Object.values(SIM_UUIDS),
      app_uuid: [SIM_UUIDS.app, SIM_UUIDS.appNoOps],
      env: ['APP_KEY', 'OPS_TOKEN', 'NODE_ENV'],
      file: [...logs.slice(0, 3), 'swagger-ui.css', 'redoc.standalone.js'],
      package: ['swagger-ui-dist', 'redoc'],
      prefix: [throwaway.apiKey.prefix],
    }
  }

  async context(routes: RouteInfo[] = allRoutes()): Promise<FuzzContext> {
    return {
      routes,
      validParams: await this.validParams(),
      apiKeys: this.apiKeys,
      opsTokens: OPS_TEST_TOKENS,
      session: () => this.session(),
      bodyLimit: 1024 * 1024,
    }
  }

  async stop() {
    app.container.restore(CoolifyClient)
    await this.coolify?.close()
    await this.polar?.close()
    for (const restore of this.restoreEnv.reverse()) restore()
    await resetRateLimits()
  }
}
