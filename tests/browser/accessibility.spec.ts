import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { Browser, Page } from 'playwright'
import AdminUser from '#models/admin_user'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { UserService } from '#services/user_service'
import { UserSyncService } from '#services/sync/user_sync_service'
import { SIM_UUIDS } from '#tests/functional/coolify/helpers'
import { createAdmin } from '#tests/functional/admin/helpers'
import { completeToken, freshDatabase, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'
import { authorizationRequest, authorizePath, pkce, registerClient, resetRegistrationLimit } from '#tests/helpers/oauth'
import { axeViolations, baseUrl, launchBrowser, login, openPage, type AxeViolation } from '#tests/browser/helpers'
import { useOpsThroughCoolify } from '#tests/browser/coolify_helpers'

/** One page to check: where it is and what shows that it has rendered its content. */
interface Visit {
  name: string
  path: string | (() => Promise<string>)
  ready: (page: Page) => Promise<unknown>
}

const heading = (page: Page) => page.locator('main h1').waitFor()

/** Every page of the admin UI and the API docs a signed-in admin can open (start/routes/admin.ts, public.ts, oauth.ts). */
const SIGNED_IN: Visit[] = [
  { name: 'overview', path: '/admin/overview?user=a11y-user&days=30', ready: (page) => page.locator('figure[data-chart="hrv_rmssd"][data-x-ticks]').waitFor() },
  { name: 'overview, 365 days', path: '/admin/overview?user=a11y-user&days=365', ready: (page) => page.getByTestId('tiles').waitFor() },
  {
    name: 'overview, custom range and a day read by keyboard',
    path: '/admin/overview?user=a11y-user&from=2026-01-01&to=2026-03-01',
    ready: async (page) => {
      await page.locator('figure[data-chart="sleep_score"] [data-testid="chart-box"] canvas').waitFor()
      await page.locator('figure[data-chart="sleep_score"] [data-testid="chart-box"]').focus()
      await page.keyboard.press('End')
      await page.getByTestId('day-readout').waitFor()
    },
  },
  { name: 'overview, unknown user', path: '/admin/overview?user=nobody', ready: (page) => page.getByRole('alert').waitFor() },
  { name: 'users', path: '/admin/users', ready: heading },
  { name: 'one user', path: '/admin/users/a11y-user', ready: heading },
  { name: 'polar', path: '/admin/polar', ready: heading },
  { name: 'api keys', path: '/admin/api-keys', ready: heading },
  { name: 'connected apps', path: '/admin/connected-apps', ready: heading },
  { name: 'coolify', path: '/coolify', ready: (page) => page.getByTestId('coolify-status').getByText('connected').waitFor() },
  {
    name: 'ops',
    path: `/coolify/apps/${SIM_UUIDS.app}/ops`,
    ready: (page) => page.getByTestId('ops-status').getByText('healthy', { exact: true }).waitFor(),
  },
  {
    name: 'oauth consent',
    path: async () => {
      await resetRegistrationLimit()
      const clientId = (await registerClient({ client_name: 'Claude', redirect_uris: ['http://127.0.0.1:9/callback'] })).body.client_id as string
      return authorizePath(authorizationRequest(clientId, pkce().challenge, { redirect_uri: 'http://127.0.0.1:9/callback', scope: 'health:read' }))
    },
    ready: (page) => page.getByRole('button', { name: 'Approve' }).waitFor(),
  },
  { name: 'oauth error', path: '/oauth/authorize?client_id=unknown', ready: heading },
  { name: 'swagger', path: '/schema/swagger', ready: (page) => page.locator('.swagger-ui .info .title').waitFor() },
  { name: 'redoc', path: '/schema/redoc', ready: (page) => page.locator('.api-content h1').first().waitFor({ timeout: 60_000 }) },
]

const SIGNED_OUT: Visit[] = [
  { name: 'login', path: '/admin/login', ready: heading },
  { name: 'login with an error', path: '/admin/login', ready: async (page) => {
    await page.getByLabel('Email').fill('nobody@example.com')
    await page.getByLabel('Password').fill('not the right password')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.locator('.field-error, .alert.error').first().waitFor()
  } },
]

const SETUP: Visit[] = [
  { name: 'setup', path: '/admin/setup', ready: heading },
  { name: 'setup with errors', path: '/admin/setup', ready: async (page) => {
    await page.getByRole('button', { name: /create/i }).click()
    await page.locator('.field-error').first().waitFor()
  } },
]

type Scheme = 'light' | 'dark'
const MODES: Array<{ scheme: Scheme; width: number }> = [
  { scheme: 'light', width: 1280 },
  { scheme: 'dark', width: 1280 },
  { scheme: 'light', width: 375 },
  { scheme: 'dark', width: 375 },
]

const describe = (found: Record<string, AxeViolation[]>) =>
  Object.entries(found)
    .map(([page, list]) => `${page}:\n${list.map((v) => `  ${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target} ${n.html}\n      ${n.summary.replace(/\n/g, ' ')}`).join('\n')}`).join('\n')}`)
    .join('\n')

/**
 * Visits each page in the given colour scheme and width, runs axe on it and records every request
 * the browser makes. Returns the serious and critical violations per page and the requests to
 * another host.
 */
async function audit(browser: Browser, visits: Visit[], scheme: Scheme, width: number, signIn: boolean) {
  const { page, context, problems } = await openPage(browser, width, 900)
  await page.emulateMedia({ colorScheme: scheme })
  const requests: string[] = []
  context.on('request', (request) => requests.push(request.url()))
  await page.route('http://127.0.0.1:9/**', (route) => route.fulfill({ status: 200, body: 'ok' }))
  if (signIn) await login(page)
  const found: Record<string, AxeViolation[]> = {}
  const audited: string[] = []
  for (const visit of visits) {
    await page.goto(typeof visit.path === 'string' ? visit.path : await visit.path())
    await visit.ready(page)
    await page.waitForLoadState('networkidle')
    const violations = await axeViolations(page)
    audited.push(visit.name)
    if (violations.length) found[`${visit.name} (${scheme}, ${width}px)`] = violations
  }
  const own = new URL(baseUrl()).host
  const outside = requests.filter((url) => !/^(data|blob):/.test(url) && new URL(url).host !== own)
  await context.close()
  return { found, outside, problems, audited }
}

test.group('Accessibility | every admin and docs page passes axe in light and dark at 1280 and 375 px', (group) => {
  let browser: Browser
  let ctx: SimulatorContext

  group.setup(async () => {
    const cleanup = await freshDatabase()
    ctx = await startSimulatorContext('2026-03-15')
    browser = await launchBrowser()
    return async () => {
      await browser.close()
      await ctx.close()
      await cleanup()
    }
  })
  useOpsThroughCoolify(group)

  test('first-run setup in {scheme} at {width} px')
    .with(MODES)
    .run(async ({ assert }, { scheme, width }) => {
      const { found, outside, problems, audited } = await audit(browser, SETUP, scheme, width, false)
      assert.deepEqual(audited, SETUP.map((visit) => visit.name))
      assert.deepEqual(outside, [])
      assert.isEmpty(found, describe(found))
      assert.deepEqual(problems.filter((p) => !/status of 422/.test(p)), [])
    })
    .timeout(60_000)

  test('signed-out and signed-in pages in {scheme} at {width} px')
    .with(MODES)
    .setup(async () => {
      // Once: an admin and a user with 90 synced days, so every chart, tile and table has content.
      if (await AdminUser.query().first()) return
      await createAdmin()
      const user = await (await app.container.make(UserService)).findOrCreate('a11y-user')
      await (await app.container.make(ProviderTokenService)).store(user, completeToken('a11y-user'))
      await (await app.container.make(UserSyncService)).sync(user, { days: 90, trigger: 'command' })
    })
    .run(async ({ assert }, { scheme, width }) => {
      const signedOut = await audit(browser, SIGNED_OUT, scheme, width, false)
      const signedIn = await audit(browser, SIGNED_IN, scheme, width, true)
      assert.deepEqual([...signedOut.audited, ...signedIn.audited], [...SIGNED_OUT, ...SIGNED_IN].map((visit) => visit.name))
      const found = { ...signedOut.found, ...signedIn.found }
      assert.deepEqual([...signedOut.outside, ...signedIn.outside], [])
      assert.isEmpty(found, describe(found))
      // Answers that are the point of the page: a refused authorization request (400), a failed
      // login (401/422), the consent page reached through Inertia's 409 redirect.
      const expected = (p: string) => /status of (400|401|422|409)/.test(p)
      assert.deepEqual([...signedOut.problems, ...signedIn.problems].filter((p) => !expected(p)), [])
    })
    .timeout(240_000)
})
