import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import AdminUser from '#models/admin_user'
import AppSetting from '#models/app_setting'
import { SETUP_TOKEN_SETTING, SetupTokenService } from '#services/admin/setup_token_service'
import ace from '@adonisjs/core/services/ace'
import { SETUP_IP_POLICY } from '#services/admin/login_throttle_service'
import { limiterFor } from '#services/rate_limit_service'
import { AdminBrowser, createAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'

const setupForm = (token: string) => ({
  token,
  email: 'Owner@Example.com',
  password: 'a long enough password',
  password_confirmation: 'a long enough password',
})

test.group('Admin UI | first-run setup', (group) => {
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await resetLoginThrottle()
    return rollback
  })

  test('every admin page leads to the setup page while no admin exists', async ({ assert }) => {
    const browser = new AdminBrowser()
    const response = await browser.get('/admin/users')
    assert.equal(response.status, 302)
    assert.equal(response.location, '/admin/setup')
    const page = await browser.visit('/admin')
    assert.equal(page.path, '/admin/setup')
    assert.equal(page.page?.component, 'auth/setup')
  })

  test('the setup token is stored only as a hash and any number of issued tokens verify', async ({ assert }) => {
    const tokens = new SetupTokenService()
    const first = await tokens.issue()
    const second = await tokens.issue()
    assert.isString(first)
    assert.notEqual(first, second)
    const setting = await AppSetting.findOrFail(SETUP_TOKEN_SETTING)
    assert.notInclude(setting.value!, first!)
    assert.notInclude(setting.value!, second!)
    assert.isTrue(await tokens.verify(first!))
    assert.isTrue(await tokens.verify(second!))
    assert.isFalse(await tokens.verify('setup_wrong'))
  })

  test('a wrong token creates no admin', async ({ assert }) => {
    await new SetupTokenService().issue()
    const browser = new AdminBrowser()
    await browser.get('/admin/setup')
    const response = await browser.post('/admin/setup', setupForm('setup_not-the-token'))
    assert.equal(response.status, 302)
    assert.equal(response.location, '/admin/setup')
    assert.isNull(await AdminUser.first())
    const page = await browser.visit('/admin/setup')
    assert.match(page.page?.props.errors.token, /invalid/)
  })

  test('the printed token creates the first admin, logs in and closes setup', async ({ assert }) => {
    const token = (await new SetupTokenService().issue())!
    const browser = new AdminBrowser()
    await browser.get('/admin/setup')
    const response = await browser.post('/admin/setup', setupForm(token))
    assert.equal(response.status, 302)
    assert.equal(response.location, '/admin')

    const admin = await AdminUser.findByOrFail('email', 'owner@example.com')
    assert.notEqual(admin.password, 'a long enough password')
    assert.isNull(await AppSetting.find(SETUP_TOKEN_SETTING))

    const overview = await browser.visit('/admin')
    assert.equal(overview.page?.component, 'overview')
    assert.equal(overview.page?.props.admin.email, 'owner@example.com')

    const anonymous = new AdminBrowser()
    const closed = await anonymous.get('/admin/setup')
    assert.equal(closed.status, 302)
    assert.equal(closed.location, '/admin/login')
    await anonymous.get('/admin/login')
    const replay = await anonymous.post('/admin/setup', { ...setupForm(token), email: 'second@example.com' })
    assert.equal(replay.status, 302)
    assert.equal(await AdminUser.query().count('* as n').first().then((r: any) => Number(r.$extras.n)), 1)
  })

  test('a weak password or a mismatched confirmation is refused with field errors', async ({ assert }) => {
    const token = (await new SetupTokenService().issue())!
    const browser = new AdminBrowser()
    await browser.get('/admin/setup')
    await browser.post('/admin/setup', { ...setupForm(token), password: 'short', password_confirmation: 'short' })
    const page = await browser.visit('/admin/setup')
    assert.property(page.page?.props.errors, 'password')
    assert.isNull(await AdminUser.first())
  })

  test('an admin created on the command line closes setup', async ({ assert }) => {
    await new SetupTokenService().issue()
    await createAdmin()
    assert.isNull(await new SetupTokenService().issue())
    assert.isNull(await AppSetting.find(SETUP_TOKEN_SETTING))
  })

  test('node ace admin create makes an admin who can log in; duplicates and bad input are refused', async ({ assert }) => {
    const created = await ace.exec('admin', ['create', '--email', 'Cli@Example.com', '--password', 'a long cli password'])
    assert.equal(created.exitCode, 0)
    const admin = await AdminUser.findByOrFail('email', 'cli@example.com')
    assert.notEqual(admin.password, 'a long cli password')
    const duplicate = await ace.exec('admin', ['create', '--email', 'cli@example.com', '--password', 'a long cli password'])
    assert.equal(duplicate.exitCode, 1)
    const short = await ace.exec('admin', ['create', '--email', 'other@example.com', '--password', 'short'])
    assert.equal(short.exitCode, 1)
    const invalid = await ace.exec('admin', ['create', '--email', 'not-an-email', '--password', 'a long cli password'])
    assert.equal(invalid.exitCode, 1)
    const browser = new AdminBrowser()
    assert.equal((await browser.login('cli@example.com', 'a long cli password')).location, '/admin')
  })

  test('setup attempts are limited per address', async ({ assert, cleanup }) => {
    // Lift the in-memory block the spent budget leaves behind, for the tests that follow.
    cleanup(() => limiterFor(SETUP_IP_POLICY).deleteInMemoryBlockedKeys())
    await new SetupTokenService().issue()
    const browser = new AdminBrowser()
    await browser.get('/admin/setup')
    for (let i = 0; i < 10; i++) await browser.post('/admin/setup', setupForm(`setup_wrong_${i}`))
    await browser.post('/admin/setup', setupForm('setup_wrong_last'))
    const page = await browser.visit('/admin/setup')
    assert.match(page.page?.props.errors.token, /Too many attempts/)
  })
})
