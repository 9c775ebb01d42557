import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import ApiKey from '#models/api_key'
import AppSetting from '#models/app_setting'
import { NightlyRechargeFactory } from '#database/factories/nightly_recharge_factory'
import { DailyActivityFactory } from '#database/factories/daily_activity_factory'
import { POLAR_CLIENT_SECRET_SETTING, PolarCredentialsService } from '#services/polar/polar_credentials_service'
import { createUser, daysAgo } from '#tests/helpers/fixtures'
import { AdminBrowser, baseUrl, loggedInAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'

test.group('Admin UI | pages', (group) => {
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    return rollback
  })

  test('the login page leads to setup while no admin exists', async ({ assert }) => {
    const response = await new AdminBrowser().get('/admin/login')
    assert.equal(response.status, 302)
    assert.equal(response.location, '/admin/setup')
  })

  test('an API key is created once in a flash message and revoked by prefix', async ({ assert }) => {
    const browser = await loggedInAdmin()
    const user = await createUser('keyed_user')
    await browser.post('/admin/api-keys', { name: 'phone', user_id: user.externalId })
    const page = await browser.visit('/admin/api-keys')
    const created = page.page!.props.created
    assert.equal(created.name, 'phone')
    assert.match(created.key, /^hrv_/)
    assert.deepInclude(page.page!.props.keys[0], { name: 'phone', scope: 'keyed_user', revoked_at: null })
    assert.notProperty(page.page!.props.keys[0], 'key_hash')
    const again = await browser.visit('/admin/api-keys')
    assert.isNull(again.page!.props.created)

    const key = await ApiKey.findByOrFail('name', 'phone')
    const revoked = await browser.request('DELETE', `/admin/api-keys/${key.prefix}`)
    assert.equal(revoked.status, 302)
    await key.refresh()
    assert.isNotNull(key.revokedAt)
  })

  test('a key for an unknown user is refused with a field error', async ({ assert }) => {
    const browser = await loggedInAdmin()
    await browser.post('/admin/api-keys', { name: 'ghost', user_id: 'nobody_here' })
    const page = await browser.visit('/admin/api-keys')
    assert.match(page.page!.props.errors.user_id, /does not exist/)
    assert.isNull(await ApiKey.findBy('name', 'ghost'))
  })

  test('the overview serves chart series with baselines for the chosen user and range', async ({ assert }) => {
    const browser = await loggedInAdmin()
    const user = await createUser('charted')
    for (let i = 0; i < 10; i++) {
      await NightlyRechargeFactory.merge({ userId: user.id, date: daysAgo(i), hrvAvg: 40 + i }).create()
      await DailyActivityFactory.merge({ userId: user.id, date: daysAgo(i), steps: 1000 * i }).create()
    }
    const page = await browser.visit('/admin/overview?user=charted&days=7')
    const data = page.page!.props.data
    assert.equal(data.userId, 'charted')
    assert.equal(data.days, 7)
    const hrv = data.charts.find((c: any) => c.key === 'hrv_rmssd')
    assert.lengthOf(hrv.points, 7)
    assert.deepEqual(hrv.points.at(-1), { date: daysAgo(0), value: 40, anomaly: null })
    const steps = data.charts.find((c: any) => c.key === 'steps')
    assert.lengthOf(steps.points, 7)
    assert.equal(steps.points[0].value, 6000)
    assert.property(data.insights, 'status')

    const unknown = await browser.visit('/admin/overview?user=nobody')
    assert.isNull(unknown.page!.props.data)
    const invalid = await browser.get('/admin/overview?days=12')
    assert.equal(invalid.status, 302)
  })

  test('the users page lists counts per type and the CSV export honours the range', async ({ assert }) => {
    const browser = await loggedInAdmin()
    const user = await createUser('exported')
    for (let i = 0; i < 5; i++) await DailyActivityFactory.merge({ userId: user.id, date: daysAgo(i), steps: 100 + i }).create()
    const page = await browser.visit('/admin/users')
    const row = page.page!.props.users.find((u: any) => u.user_id === 'exported')
    assert.equal(row.counts.activity, 5)
    assert.equal(row.counts.sleep, 0)
    assert.isFalse(row.connected)

    const csv = await browser.get('/admin/users/exported/export/activity.csv?days=3')
    assert.equal(csv.status, 200)
    assert.match(csv.headers.get('content-type')!, /^text\/csv/)
    assert.lengthOf(csv.text.trim().split(/\r?\n/), 4)

    const anonymous = await fetch(`${baseUrl()}/admin/users/exported/export/activity.csv`, { redirect: 'manual' })
    assert.equal(anonymous.status, 302)
  })

  test('Sync now refuses a user without a Polar token with an actionable message', async ({ assert }) => {
    const browser = await loggedInAdmin()
    await createUser('offline')
    const response = await browser.request('POST', '/admin/users/offline/sync', { json: {} })
    assert.equal(response.status, 409)
    assert.match(JSON.parse(response.text).message, /Connect their Polar account/)
    const unknown = await browser.request('POST', '/admin/users/missing/sync', { json: {} })
    assert.equal(unknown.status, 404)
  })

  test('Polar client credentials are stored with the secret encrypted and never shown', async ({ assert }) => {
    const browser = await loggedInAdmin()
    await browser.post('/admin/polar/credentials', { client_id: 'client-123', client_secret: 'very-secret-value' })
    const setting = await AppSetting.findOrFail(POLAR_CLIENT_SECRET_SETTING)
    assert.isTrue(Boolean(setting.isEncrypted))
    assert.notInclude(setting.value!, 'very-secret-value')
    assert.deepInclude(await new PolarCredentialsService().get(), { clientId: 'client-123', clientSecret: 'very-secret-value' })
    const page = await browser.visit('/admin/polar')
    assert.notInclude(page.text, 'very-secret-value')
    assert.deepEqual(page.page!.props.credentials, { configured: true, source: 'settings', clientId: 'client-123', fromEnv: false })
    assert.match(page.page!.props.callbackUrl, /\/admin\/polar\/callback$/)
  })

  test('webhook register and delete without client credentials explain what to do instead of failing', async ({ assert }) => {
    const browser = await loggedInAdmin()
    for (const [method, form] of [['POST', { url: 'https://example.com/webhooks/polar' }], ['DELETE', {}]] as const) {
      const response = await browser.request(method, '/admin/polar/webhook', { form })
      assert.equal(response.status, 302, `${method} ${response.text.slice(0, 200)}`)
      const page = await browser.visit('/admin/polar')
      assert.match(page.page!.props.flash.error, /credentials first/)
    }
  })

  test('a Polar callback with a refusal or a forged state connects nobody', async ({ assert }) => {
    const browser = await loggedInAdmin()
    await new PolarCredentialsService().save('client-123', 'secret')
    await browser.get('/admin/polar/callback?error=access_denied')
    let page = await browser.visit('/admin/polar')
    assert.match(page.page!.props.flash.error, /declined/)
    await browser.get('/admin/polar/callback?code=abc&state=forged')
    page = await browser.visit('/admin/polar')
    assert.match(page.page!.props.flash.error, /state/i)
    assert.isNull(page.page!.props.connected)
  })
})
