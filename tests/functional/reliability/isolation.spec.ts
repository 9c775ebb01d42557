import { test } from '@japa/runner'
import { mkdir, writeFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { logDir } from '#config/paths'
import { opsPrefix } from '#config/surfaces'
import { ApiKeyService } from '#services/auth/api_key_service'
import { OPS_SCOPES } from '#services/ops/ops_tokens'
import { createUser } from '#tests/helpers/fixtures'
import { AdminBrowser, createAdmin } from '#tests/functional/admin/helpers'
import { allRoutes, fillPattern, isMutation, type RouteInfo } from '#tests/helpers/fuzz/routes'
import { countDiff, rowCounts } from '#tests/helpers/fuzz/db_snapshot'
import { send } from '#tests/helpers/fuzz/http'
import { resetRateLimits } from '#tests/helpers/fuzz/rate_limits'
import { truncateDatabase } from '#tests/helpers/database'

const port = () => Number(env.get('PORT'))

/** Representative valid values for path params, so a refusal is about access and nothing else. */
const SAMPLE_PARAMS: Record<string, string> = {
  date: '2026-03-10',
  id: '1',
  metric_name: 'hrv_rmssd',
  value: '45',
  pattern_name: 'hrv_trend',
  file: 'isolation.log',
  uuid: 'a0hrvault0app0000000001',
  app_uuid: 'a0hrvault0app0000000001',
  env: 'APP_KEY',
  prefix: 'hrv_AAAAAAAA',
  user: 'iso_owner',
  package: 'swagger-ui-dist',
}

/**
 * The scope each operations route requires (spec, Surface B table), by
 * pattern relative to OPS_PREFIX. A route missing here fails the test, so a
 * new operations route must be given its scope.
 */
const OPS_ROUTE_SCOPES: Record<string, string> = {
  'GET /health': 'health:read',
  'GET /stats': 'stats:read',
  'GET /logs': 'logs:read',
  'GET /logs/:file': 'logs:read',
  'GET /queue': 'queue:read',
  'GET /queue/failed': 'queue:read',
  'POST /queue/retry/:id': 'queue:retry',
  'POST /queue/retry-all': 'queue:retry',
  'GET /console': 'console:list',
  'POST /console': 'console:execute',
}

/** Body of an authorised operations call that succeeds. */
const OPS_BODIES: Record<string, unknown> = { 'POST /console': { command: 'list' } }

/** Pages and form posts a logged-out visitor may reach. */
const PUBLIC_ADMIN_ROUTES = new Set(['admin.setup', 'admin.setup.store', 'admin.login', 'admin.login.store'])

const routesOf = (...surfaces: RouteInfo['surface'][]) => allRoutes().filter((r) => surfaces.includes(r.surface))
const pathOf = (route: RouteInfo, params: Record<string, string> = {}) => fillPattern(route.pattern, { ...SAMPLE_PARAMS, ...params })

test.group('Reliability | isolation: user-scoped keys', (group) => {
  group.each.setup(async () => {
    await resetRateLimits()
    return truncateDatabase()
  })

  test('a user-scoped key gets 403 for every other user on every analytics route', async ({ assert }) => {
    const names = ['iso_ada', 'iso_ben', 'iso_cy']
    const keys: Record<string, string> = {}
    for (const name of names) {
      await createUser(name)
      keys[name] = (await (await app.container.make(ApiKeyService)).create(`key ${name}`, name)).plain
    }
    const routes = routesOf('analytics').filter((r) => r.params.includes('user_id'))
    assert.isAbove(routes.length, 30)

    let cells = 0
    const leaks: string[] = []
    for (const route of routes) {
      for (const method of route.methods) {
        for (const owner of names) {
          // Every other known user, and an unknown one (403 before existence: no user enumeration).
          for (const other of [...names.filter((n) => n !== owner), 'iso_nobody']) {
            const before = await rowCounts()
            const response = await send(port(), {
              method,
              path: pathOf(route, { user_id: other }),
              headers: [['X-API-Key', keys[owner]], ['X-Provider-Token', 'someone_else_bio_complete'], ['Content-Type', 'application/json']],
              body: isMutation(method) ? '{}' : undefined,
            })
            cells++
            const diff = countDiff(before, await rowCounts())
            const body = JSON.parse(response.body || 'null')
            if (response.status !== 403 || body?.code !== 'E_FORBIDDEN_USER' && body?.status !== 403) {
              leaks.push(`${method} ${route.pattern} key=${owner} user=${other}: ${response.status} ${response.body.slice(0, 120)}`)
            }
            if (Object.keys(diff).length) leaks.push(`${method} ${route.pattern} key=${owner} user=${other} wrote ${JSON.stringify(diff)}`)
          }
        }
      }
    }
    console.log(`user-scope matrix: ${cells} cells over ${routes.length} routes`)
    assert.deepEqual(leaks, [])
  }).timeout(120_000)

  test('a user-scoped key reaches its own user on every analytics route', async ({ assert }) => {
    await createUser('iso_self')
    const key = (await (await app.container.make(ApiKeyService)).create('self', 'iso_self')).plain
    const refused: string[] = []
    const calls = routesOf('analytics')
      .filter((r) => r.params.includes('user_id'))
      .flatMap((route) => route.methods.map((method) => ({ route, method })))
      // Erasure last: it deletes the user and the key the walk uses.
      .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
    for (const { route, method } of calls) {
      // The sync trigger would call the provider: without a provider token it is a 400, not a 403.
      const response = await send(port(), { method, path: pathOf(route, { user_id: 'iso_self' }), headers: [['X-API-Key', key]] })
      if ([401, 403].includes(response.status)) refused.push(`${method} ${route.pattern}: ${response.status}`)
    }
    assert.deepEqual(refused, [])
  }).timeout(120_000)
})

test.group('Reliability | isolation: operations tokens and scopes', (group) => {
  const tokens: Record<string, string> = {}
  group.setup(async () => {
    const previous = { tokens: env.get('OPS_TOKENS'), token: env.get('OPS_TOKEN') }
    const map: Record<string, string[]> = {}
    for (const scope of [...OPS_SCOPES, '*']) {
      tokens[scope] = `iso-${scope.replace(/[:*]/g, '_')}-token-0123456789abcdefghij`
      map[tokens[scope]] = [scope]
    }
    tokens.none = 'iso-no-scope-token-0123456789abcdef'
    map[tokens.none] = []
    env.set('OPS_TOKENS', JSON.stringify(map))
    env.set('OPS_TOKEN', '')
    await mkdir(logDir, { recursive: true })
    await writeFile(join(logDir, SAMPLE_PARAMS.file), JSON.stringify({ level: 30, time: Date.now(), msg: 'isolation' }) + '\n')
    return async () => {
      env.set('OPS_TOKENS', previous.tokens ?? '')
      env.set('OPS_TOKEN', previous.token ?? '')
      await rm(join(logDir, SAMPLE_PARAMS.file), { force: true })
    }
  })
  group.each.setup(async () => {
    await resetRateLimits()
    return truncateDatabase()
  })

  test('every token × every operations route: 200 with the scope or *, 403 without, 401 without a valid token', async ({ assert }) => {
    const routes = routesOf('ops')
    const mismatches: string[] = []
    let cells = 0
    for (const route of routes) {
      for (const method of route.methods) {
        const key = `${method} ${route.pattern.slice(opsPrefix.length) || '/'}`
        const required = OPS_ROUTE_SCOPES[key]
        if (!required) {
          mismatches.push(`${key}: no scope known for this operations route`)
          continue
        }
        const body = OPS_BODIES[key]
        for (const [holder, token] of [...Object.entries(tokens), ['invalid', 'not-a-configured-token-0123456789'], ['missing', null]] as const) {
          const headers: Array<[string, string]> = token ? [['Authorization', `Bearer ${token}`]] : []
          if (body) headers.push(['Content-Type', 'application/json'])
          const response = await send(port(), { method, path: pathOf(route), headers, body: body ? JSON.stringify(body) : undefined })
          cells++
          const granted = holder === required || holder === '*'
          const expected = holder === 'invalid' || holder === 'missing' ? [401] : granted ? successFor(key) : [403]
          if (!expected.includes(response.status)) {
            mismatches.push(`${key} token=${holder}: ${response.status} (expected ${expected.join('/')}) ${response.body.slice(0, 120)}`)
          }
        }
      }
    }
    console.log(`ops scope matrix: ${cells} cells over ${routes.length} routes`)
    assert.deepEqual(mismatches, [])
  }).timeout(180_000)
})

/** Success statuses of an authorised call (a retry of a job id that does not exist is a 404). */
function successFor(key: string): number[] {
  if (key === 'POST /queue/retry/:id') return [404]
  return [200]
}

test.group('Reliability | isolation: admin session and CSRF', (group) => {
  group.each.setup(async () => {
    await resetRateLimits()
    return truncateDatabase()
  })

  test('logged out: every dashboard API route is a 401 problem and every admin page redirects to login', async ({ assert }) => {
    await createAdmin()
    const wrong: string[] = []
    const routes = routesOf('dashboard_api', 'admin', 'dashboard_page').filter((r) => !PUBLIC_ADMIN_ROUTES.has(r.name))
    // A logged-out visitor holding a valid CSRF token, so the refusal comes from the session check.
    const visitor = new AdminBrowser()
    await visitor.get('/admin/login')
    for (const route of routes) {
      for (const method of route.methods) {
        const options = !isMutation(method) ? {} : route.surface === 'dashboard_api' ? { json: {} } : { form: {} }
        const response = await visitor.request(method, pathOf(route), options)
        const type = String(response.headers.get('content-type'))
        if (route.surface === 'dashboard_api') {
          if (response.status !== 401 || !type.startsWith('application/problem+json')) wrong.push(`${method} ${route.pattern}: ${response.status} ${type}`)
        } else if (![302, 303].includes(response.status) || !String(response.location).startsWith('/admin/login')) {
          wrong.push(`${method} ${route.pattern}: ${response.status} → ${response.location}`)
        }
      }
    }
    console.log(`logged-out matrix: ${routes.length} routes`)
    assert.deepEqual(wrong, [])
  }).timeout(60_000)

  test('every admin and dashboard mutation without a CSRF token is refused and changes nothing', async ({ assert }) => {
    await createAdmin()
    await createUser('iso_owner')
    const browser = new AdminBrowser()
    await browser.login()
    const accepted: string[] = []
    const routes = routesOf('dashboard_api', 'admin', 'dashboard_page').filter((r) => r.methods.some(isMutation))
    assert.isAbove(routes.length, 20)
    for (const route of routes) {
      for (const method of route.methods.filter(isMutation)) {
        // Logged in for the protected routes, logged out for the login and setup forms.
        const client = PUBLIC_ADMIN_ROUTES.has(route.name) ? new AdminBrowser() : browser
        if (client !== browser) await client.get('/admin/login')
        const before = await rowCounts()
        const response = await client.request(method, pathOf(route), {
          xsrf: false,
          ...(route.surface === 'dashboard_api' ? { json: {} } : { form: { name: 'x', email: 'admin@example.com', password: 'correct horse battery staple' } }),
        })
        const diff = countDiff(before, await rowCounts())
        const refused =
          route.surface === 'dashboard_api'
            ? response.status === 403 && JSON.parse(response.text).code === 'E_BAD_CSRF_TOKEN'
            : response.status === 403 || ((response.status === 302 || response.status === 303) && !String(response.location).includes('/admin/overview'))
        if (!refused || Object.keys(diff).length > 0) {
          accepted.push(`${method} ${route.pattern}: ${response.status} → ${response.location ?? ''} ${JSON.stringify(diff)}`)
        }
      }
    }
    // The session still works afterwards: the refusals did not log the admin out.
    const overview = await browser.get('/admin/overview')
    assert.equal(overview.status, 200)
    assert.deepEqual(accepted, [])
  }).timeout(60_000)
})
