import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import { DateTime } from 'luxon'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import ApiKey from '#models/api_key'
import AuditLog from '#models/audit_log'
import SyncRun from '#models/sync_run'
import User from '#models/user'
import { ExerciseFactory } from '#database/factories/exercise_factory'
import { HeartRateDayFactory } from '#database/factories/heart_rate_day_factory'
import { SleepRecordFactory } from '#database/factories/sleep_record_factory'
import { ApiKeyService } from '#services/auth/api_key_service'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { UserCoverageService } from '#services/admin/user_coverage_service'
import { DATA_TYPES } from '#services/records/data_types'
import { freshDatabase } from '#tests/functional/sync/simulator_context'
import { createUser, daysAgo, serviceApiKey } from '#tests/helpers/fixtures'
import { AdminBrowser, baseUrl, loggedInAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'

test.group('Admin UI | display name', (group) => {
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    return rollback
  })

  test('a display name is saved trimmed, shown on the users page and in the API, and removed by an empty field', async ({ assert, client }) => {
    const browser = await loggedInAdmin()
    const user = await createUser('named_user')
    const saved = await browser.request('PATCH', '/admin/users/named_user', { form: { display_name: "  Anna's watch  " } })
    assert.equal(saved.status, 302)
    assert.equal(saved.location, '/admin/users/named_user')
    await user.refresh()
    assert.equal(user.displayName, "Anna's watch")

    const list = await browser.visit('/admin/users')
    assert.deepInclude(list.page!.props.users[0], { user_id: 'named_user', display_name: "Anna's watch" })
    const detail = await browser.visit('/admin/users/named_user')
    assert.equal(detail.page!.component, 'users/show')
    assert.equal(detail.page!.props.detail.user.display_name, "Anna's watch")

    const key = await serviceApiKey()
    const one = await client.get('/api/v1/users/named_user').header('X-API-Key', key)
    assert.equal(one.body().display_name, "Anna's watch")
    const all = await client.get('/api/v1/users').header('X-API-Key', key)
    assert.deepEqual(all.body().map((u: { display_name: string | null }) => u.display_name), ["Anna's watch"])

    await browser.request('PATCH', '/admin/users/named_user', { form: { display_name: '' } })
    await user.refresh()
    assert.isNull(user.displayName)
    const cleared = await client.get('/api/v1/users/named_user').header('X-API-Key', key)
    assert.isNull(cleared.body().display_name)
  })

  test('a display name of {label} is refused with a field error and nothing is saved')
    .with([
      { label: '81 characters', value: 'x'.repeat(81), message: /at most 80/ },
      { label: 'a line break', value: 'Anna\nBerg', message: /one line/ },
      { label: 'a tab', value: 'Anna\tBerg', message: /one line/ },
    ])
    .run(async ({ assert }, { value, message }) => {
      const browser = await loggedInAdmin()
      const user = await createUser('strict_user')
      await browser.request('PATCH', '/admin/users/strict_user', { form: { display_name: 'Before' } })
      const refused = await browser.request('PATCH', '/admin/users/strict_user', {
        form: { display_name: value },
        headers: { Referer: `${baseUrl()}/admin/users/strict_user` },
      })
      assert.equal(refused.status, 302)
      const page = await browser.visit('/admin/users/strict_user')
      assert.match(page.page!.props.errors.display_name, message)
      await user.refresh()
      assert.equal(user.displayName, 'Before')
    })

  test('80 characters are accepted; a missing field and an unknown user are refused', async ({ assert }) => {
    const browser = await loggedInAdmin()
    const user = await createUser('long_name')
    await browser.request('PATCH', '/admin/users/long_name', { form: { display_name: 'é'.repeat(80) } })
    await user.refresh()
    assert.equal(user.displayName, 'é'.repeat(80))

    await browser.request('PATCH', '/admin/users/long_name', { form: {}, headers: { Referer: `${baseUrl()}/admin/users/long_name` } })
    const page = await browser.visit('/admin/users/long_name')
    assert.match(page.page!.props.errors.display_name, /Enter a display name/)

    const unknown = await browser.request('PATCH', '/admin/users/nobody_here', { form: { display_name: 'Ghost' } })
    assert.equal(unknown.status, 404)
    assert.equal((await browser.get('/admin/users/nobody_here')).status, 404)
    assert.isNull(await User.findBy('externalId', 'nobody_here'))
  })
})

test.group('Admin UI | data coverage', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('days with data per type over the last 365 days, counted per local date, nothing outside the window', async ({ assert }) => {
    const user = await createUser('covered')
    const other = await createUser('someone_else')
    for (const n of [0, 3, 364]) await SleepRecordFactory.merge({ userId: user.id, date: daysAgo(n) }).create()
    // Outside the window, and another user's night: neither counts.
    await SleepRecordFactory.merge({ userId: user.id, date: daysAgo(365) }).create()
    await SleepRecordFactory.merge({ userId: other.id, date: daysAgo(1) }).create()
    // Two exercises on one day count 2 for that date.
    await ExerciseFactory.merge([
      { userId: user.id, startDate: daysAgo(10) },
      { userId: user.id, startDate: daysAgo(10) },
      { userId: user.id, startDate: daysAgo(20) },
    ]).createMany(3)
    await HeartRateDayFactory.merge({ userId: user.id, date: daysAgo(5) }).create()

    const coverage = await (await app.container.make(UserCoverageService)).forUser(user)
    assert.equal(coverage.days, 365)
    assert.equal(coverage.from, daysAgo(364))
    assert.equal(coverage.to, daysAgo(0))
    assert.deepEqual(
      coverage.sources.map((s) => s.key),
      DATA_TYPES.map((t) => t.key)
    )
    const byKey = Object.fromEntries(coverage.sources.map((s) => [s.key, s]))
    assert.deepEqual(byKey.sleep.counts, { [daysAgo(364)]: 1, [daysAgo(3)]: 1, [daysAgo(0)]: 1 })
    assert.deepEqual(Object.keys(byKey.sleep.counts), [daysAgo(364), daysAgo(3), daysAgo(0)], 'oldest first')
    assert.equal(byKey.sleep.daysWithData, 3)
    assert.deepEqual(byKey.exercises.counts, { [daysAgo(20)]: 1, [daysAgo(10)]: 2 })
    assert.equal(byKey.exercises.daysWithData, 2)
    assert.deepEqual(byKey.heart_rate.counts, { [daysAgo(5)]: 1 })
    assert.deepEqual(byKey.recharge.counts, {})
    assert.equal(byKey.recharge.label, 'Nightly Recharge')
  })

  test('a shorter window counts only its own days', async ({ assert }) => {
    const user = await createUser('short_window')
    for (const n of [0, 6, 7]) await SleepRecordFactory.merge({ userId: user.id, date: daysAgo(n) }).create()
    const coverage = await (await app.container.make(UserCoverageService)).forUser(user, 7)
    assert.deepEqual(Object.keys(coverage.sources.find((s) => s.key === 'sleep')!.counts), [daysAgo(6), daysAgo(0)])
  })
})

test.group('Admin UI | per-user page', (group) => {
  // The erasure takes the user's sync lock and its own transaction: truncate instead of a global transaction.
  group.each.setup(async () => {
    const cleanup = await freshDatabase()
    await resetLoginThrottle()
    return cleanup
  })

  test('the page lists the user runs newest first, their keys and coverage', async ({ assert }) => {
    const browser = await loggedInAdmin()
    const user = await createUser('paged_user')
    const other = await createUser('other_user')
    const started = DateTime.now()
    for (const status of ['failed', 'success']) {
      await SyncRun.create({ userId: user.id, trigger: 'admin', status, days: 28, providerCalls: 12, startedAt: started, finishedAt: started })
    }
    await SyncRun.create({ userId: other.id, trigger: 'admin', status: 'success', days: 28, providerCalls: 1, startedAt: started })
    const keys = await app.container.make(ApiKeyService)
    await keys.create('phone', 'paged_user')
    await keys.create('not theirs', 'other_user')
    await SleepRecordFactory.merge({ userId: user.id, date: daysAgo(2) }).create()

    const page = await browser.visit('/admin/users/paged_user')
    const { detail } = page.page!.props
    assert.deepEqual(detail.runs.map((r: { status: string }) => r.status), ['success', 'failed'])
    assert.equal(detail.runs[0].provider_calls, 12)
    assert.deepEqual(detail.keys.map((k: { name: string }) => k.name), ['phone'])
    assert.deepEqual(detail.coverage.sources.find((s: { key: string }) => s.key === 'sleep').counts, { [daysAgo(2)]: 1 })
  })

  test('a key is revoked from the page only when it belongs to the user', async ({ assert }) => {
    const browser = await loggedInAdmin()
    await createUser('key_owner')
    await createUser('key_stranger')
    const keys = await app.container.make(ApiKeyService)
    const { apiKey: own } = await keys.create('own', 'key_owner')
    const { apiKey: foreign } = await keys.create('foreign', 'key_stranger')

    const refused = await browser.request('DELETE', `/admin/users/key_owner/api-keys/${foreign.prefix}`)
    assert.equal(refused.location, '/admin/users/key_owner')
    assert.isNull((await ApiKey.findOrFail(foreign.id)).revokedAt)
    await browser.request('DELETE', `/admin/users/key_owner/api-keys/${own.prefix}`)
    assert.isNotNull((await ApiKey.findOrFail(own.id)).revokedAt)
  })

  test('deleting needs the user id typed exactly, then erases the user with an audit entry', async ({ assert }) => {
    const browser = await loggedInAdmin()
    const user = await createUser('doomed_user')
    await SleepRecordFactory.merge({ userId: user.id, date: daysAgo(1) }).create()
    const back = { Referer: `${baseUrl()}/admin/users/doomed_user` }

    for (const confirm of ['', 'doomed_use', 'DOOMED_USER', 'doomed_user2']) {
      const refused = await browser.request('DELETE', '/admin/users/doomed_user', { form: { confirm }, headers: back })
      assert.equal(refused.status, 302)
      const page = await browser.visit('/admin/users/doomed_user')
      assert.match(page.page!.props.errors.confirm, /Type the user id/)
      assert.isNotNull(await User.find(user.id), `kept after confirm=${JSON.stringify(confirm)}`)
    }

    const deleted = await browser.request('DELETE', '/admin/users/doomed_user', { form: { confirm: 'doomed_user' } })
    assert.equal(deleted.status, 302)
    assert.equal(deleted.location, '/admin/users')
    assert.isNull(await User.find(user.id))
    const audit = await AuditLog.findByOrFail('target', 'doomed_user')
    assert.equal(audit.action, 'user.delete')
    assert.equal(audit.actorType, 'admin')
    assert.equal(audit.actor, 'admin@example.com')
    const list = await browser.visit('/admin/users')
    assert.match(list.page!.props.flash.success, /doomed_user/)
  })
})

test.group('Admin UI | per-user page guards', (group) => {
  group.each.setup(async () => {
    const cleanup = await freshDatabase()
    await resetLoginThrottle()
    return cleanup
  })

  /** Every route of the per-user page with what it changes when it goes through. */
  const routes = (prefix: string) =>
    [
      ['GET', '/admin/users/guarded_user', undefined],
      ['GET', '/admin/users/guarded_user/takeout', undefined],
      ['PATCH', '/admin/users/guarded_user', { display_name: 'Forged' }],
      ['DELETE', `/admin/users/guarded_user/api-keys/${prefix}`, undefined],
      ['DELETE', '/admin/users/guarded_user', { confirm: 'guarded_user' }],
    ] as const

  async function assertUnchanged(assert: Assert, userId: number, keyId: number, what: string) {
    const user = await User.find(userId)
    assert.isNotNull(user, `user kept after ${what}`)
    assert.isNull(user!.displayName, `name kept after ${what}`)
    assert.isNull((await ApiKey.findOrFail(keyId)).revokedAt, `key kept after ${what}`)
  }

  test('without an admin session every route of the page leads to the login and changes nothing', async ({ assert }) => {
    await loggedInAdmin()
    const user = await createUser('guarded_user')
    const { apiKey } = await (await app.container.make(ApiKeyService)).create('phone', 'guarded_user')
    const anonymous = new AdminBrowser()
    await anonymous.get('/admin/login')
    for (const [method, path, form] of routes(apiKey.prefix)) {
      const response = await anonymous.request(method, path, { form })
      assert.equal(response.status, 302, `${method} ${path}`)
      assert.match(response.location!, /^\/admin\/login/, `${method} ${path}`)
      assert.notInclude(response.text, 'PK', `${method} ${path}`)
      await assertUnchanged(assert, user.id, apiKey.id, `${method} ${path}`)
    }
  })

  test('a signed-in change without the XSRF token is refused and changes nothing', async ({ assert }) => {
    const browser = await loggedInAdmin()
    const user = await createUser('guarded_user')
    const { apiKey } = await (await app.container.make(ApiKeyService)).create('phone', 'guarded_user')
    for (const [method, path, form] of routes(apiKey.prefix).filter(([method]) => method !== 'GET')) {
      const response = await browser.request(method, path, { form, xsrf: false })
      assert.notEqual(response.location, '/admin/users', `${method} ${path}`)
      await assertUnchanged(assert, user.id, apiKey.id, `${method} ${path}`)
    }
    // The same requests with the token go through: the refusal was the token's.
    await browser.request('DELETE', `/admin/users/guarded_user/api-keys/${apiKey.prefix}`)
    assert.isNotNull((await ApiKey.findOrFail(apiKey.id)).revokedAt)
  })

  test('the page carries no key hash, plain key or Polar token, and an unknown key or user changes nothing', async ({ assert }) => {
    const browser = await loggedInAdmin()
    const user = await createUser('guarded_user')
    const secret = 'polar-access-token-never-shown-0123456789'
    await (await app.container.make(ProviderTokenService)).store(user, secret)
    const { apiKey, plain } = await (await app.container.make(ApiKeyService)).create('phone', 'guarded_user')

    const page = await browser.visit('/admin/users/guarded_user')
    assert.isTrue(page.page!.props.detail.user.connected)
    for (const text of [apiKey.keyHash, plain, secret]) assert.notInclude(page.text, text)
    assert.deepEqual(Object.keys(page.page!.props.detail.keys[0]).sort(), ['created_at', 'last_used_at', 'name', 'prefix', 'revoked_at', 'scope'])

    // A prefix that is no key, a malformed one and a user that does not exist.
    const unknown = await browser.request('DELETE', '/admin/users/guarded_user/api-keys/hrv_00000000')
    assert.equal(unknown.location, '/admin/users/guarded_user')
    assert.equal((await browser.request('DELETE', '/admin/users/guarded_user/api-keys/not-a-prefix')).status, 302)
    assert.equal((await browser.request('DELETE', `/admin/users/nobody_here/api-keys/${apiKey.prefix}`)).status, 404)
    assert.equal((await browser.request('DELETE', '/admin/users/nobody_here', { form: { confirm: 'nobody_here' } })).status, 404)
    await assertUnchanged(assert, user.id, apiKey.id, 'unknown targets')
  })
})
