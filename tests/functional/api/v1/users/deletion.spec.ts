import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import app from '@adonisjs/core/services/app'
import ace from '@adonisjs/core/services/ace'
import lock from '@adonisjs/lock/services/main'
import db from '@adonisjs/lucid/services/db'
import AppSetting from '#models/app_setting'
import AuditLog from '#models/audit_log'
import FailedJob from '#models/failed_job'
import User from '#models/user'
import SyncUserJob from '#jobs/sync_user_job'
import UserDeleteCommand from '#commands/user_delete'
import { DatabaseCatalog, type UserTable } from '#services/database_catalog'
import { PolarClientFactory } from '#services/polar/polar_client_factory'
import { POLAR_WEBHOOK_SETTINGS } from '#services/polar/polar_webhook_service'
import { DATA_TYPES } from '#services/records/data_types'
import { userSyncLockKey } from '#services/sync/user_sync_service'
import { ERASURE_KEEPS_TABLES } from '#services/users/user_deletion_service'
import { completeToken, simulatorPerTest } from '#tests/functional/sync/simulator_context'
import { createUser, serviceApiKey } from '#tests/helpers/fixtures'
import { ApiKeyService } from '#services/auth/api_key_service'
import { redisEnabled } from '#config/redis'

const TODAY = '2026-03-15'

/** Every table that holds a user's rows, read from the database's own catalogue (as the erasure reads it). */
async function userTables(): Promise<UserTable[]> {
  return (await app.container.make(DatabaseCatalog)).userTables(ERASURE_KEEPS_TABLES)
}

/** Rows per user table for `userId` (tables without rows left out), plus the users row. */
async function rowsOf(userId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const { table, column } of await userTables()) {
    const [{ n }] = await db.from(table).where(column, userId).count('* as n')
    if (Number(n) > 0) counts[table] = Number(n)
  }
  const [{ n }] = await db.from('users').where('id', userId).count('* as n')
  counts.users = Number(n)
  return counts
}

/** A user's stored rows, table by table, ordered by id (to prove they did not change). */
async function contentOf(userId: number) {
  const content: Record<string, unknown[]> = {}
  for (const { table, column } of await userTables()) content[table] = await db.from(table).where(column, userId).orderBy(column)
  content.users = await db.from('users').where('id', userId)
  return content
}

/** Jobs of the database queue whose payload names the user. */
async function queuedJobsOf(userId: number) {
  const [{ n }] = await db.from('queue_jobs').where('data', 'like', `%"userId":${userId},%`).count('* as n')
  return Number(n)
}

test.group('API v1 | user erasure', (group) => {
  const ctx = simulatorPerTest(group, TODAY)

  /** A user synced from the simulator, registered at Polar, with analytics, their own key and queued work. */
  async function populatedUser(client: any, serviceKey: string, name: string) {
    const token = completeToken(name)
    await (await app.container.make(PolarClientFactory)).accessLink(token).registerUser(`hrvault-${name}`)
    ;(await client.post(`/api/v1/users/${name}/sync/trigger?days=28`).header('X-Provider-Token', token).header('X-API-Key', serviceKey)).assertStatus(200)
    ;(await client.post(`/api/v1/users/${name}/baselines/calculate`).header('X-API-Key', serviceKey)).assertStatus(200)
    ;(await client.post(`/api/v1/users/${name}/patterns/detect`).header('X-API-Key', serviceKey)).assertStatus(200)
    const user = await User.findByOrFail('externalId', name)
    const { plain } = await (await app.container.make(ApiKeyService)).create(`${name} phone`, name)
    await FailedJob.create({
      connection: 'database',
      queue: 'default',
      jobName: 'SyncUserJob',
      jobId: `failed-${name}`,
      payload: JSON.stringify({ userId: user.id, trigger: 'scheduler' }),
      exception: `Sync of user ${name} failed: Polar answered 500`,
      failedAt: DateTime.now(),
    })
    await SyncUserJob.dispatch({ userId: user.id, trigger: 'scheduler' }).in('1h').run()
    return { user, key: plain, token }
  }

  test('DELETE erases every row of every user table in one go, de-registers at Polar, audits without health data; a second call is 404', async ({
    client,
    assert,
  }) => {
    const serviceKey = await serviceApiKey()
    const leaver = await populatedUser(client, serviceKey, 'leaver')
    const stayer = await populatedUser(client, serviceKey, 'stayer')
    const stayerBefore = await contentOf(stayer.user.id)

    // The tables come from the database, so the catalogue's and every bookkeeping table are among them.
    const tables = (await userTables()).map((entry) => entry.table)
    assert.includeMembers(tables, [...DATA_TYPES.map((type) => type.table), 'baselines', 'patterns', 'sync_runs', 'api_keys', 'raw_payloads'])
    assert.notInclude(tables, 'audit_logs')
    const before = await rowsOf(leaver.user.id)
    const queuedBefore = await queuedJobsOf(leaver.user.id)
    if (!redisEnabled) assert.equal(queuedBefore, 1)
    for (const table of ['sleep_records', 'sleep_list_lines', 'raw_payloads', 'baselines', 'patterns', 'sync_runs', 'api_keys']) assert.isAbove(before[table] ?? 0, 0, table)

    // The webhook receiver's note of the last event names the leaver's Polar account.
    assert.isNotNull(leaver.user.polarUserId)
    await AppSetting.updateOrCreate(
      { key: POLAR_WEBHOOK_SETTINGS.lastEvent },
      { value: JSON.stringify({ event: 'SLEEP', polarUserId: leaver.user.polarUserId, receivedAt: `${TODAY}T06:00:00.000Z` }), isEncrypted: false }
    )
    // A cached answer exists before the erasure; it must not outlive it.
    ;(await client.get('/api/v1/users/leaver/sleep?days=7').header('X-API-Key', serviceKey)).assertStatus(200)

    const response = await client.delete('/api/v1/users/leaver').header('X-API-Key', leaver.key)
    response.assertStatus(204)
    assert.equal(response.text(), '')

    const after = await rowsOf(leaver.user.id)
    assert.deepEqual(after, { users: 0 })
    assert.deepEqual(await contentOf(stayer.user.id), stayerBefore)
    const failed = await FailedJob.query().where('jobId', 'like', 'failed-%')
    assert.deepEqual(
      failed.map((job) => job.jobId),
      ['failed-stayer']
    )
    // The database queue held the delayed sync job (with Redis it waits there and finds no user).
    assert.equal(await queuedJobsOf(leaver.user.id), 0)
    assert.equal(await queuedJobsOf(stayer.user.id), queuedBefore)

    const lastEvent = await AppSetting.findOrFail(POLAR_WEBHOOK_SETTINGS.lastEvent)
    assert.deepEqual(JSON.parse(lastEvent.value!), { event: 'SLEEP', polarUserId: null, receivedAt: `${TODAY}T06:00:00.000Z` })

    // Polar saw the DELETE with the user's own token and forgot them; the other user stays registered.
    const polarId = Number(leaver.user.polarUserId ?? ctx().sim.polarUserIdOf(leaver.token))
    const deletes = ctx().sim.requestsTo('users').filter((request) => request.method === 'DELETE')
    assert.deepEqual(
      deletes.map((request) => [request.path, request.status]),
      [[`/v3/users/${polarId}`, 204]]
    )
    assert.notInclude(ctx().sim.registeredUsers(), polarId)
    assert.include(ctx().sim.registeredUsers(), ctx().sim.polarUserIdOf(stayer.token))

    const audit = await AuditLog.query().where('action', 'user.delete').firstOrFail()
    assert.equal(audit.actorType, 'api_key')
    assert.equal(audit.actor, 'leaver phone')
    assert.equal(audit.target, 'leaver')
    assert.equal(audit.outcome, 'success')
    const details = JSON.parse(audit.details!)
    assert.deepEqual(Object.keys(details).sort(), ['polar_deregistration', 'requested_by', 'rows_deleted', 'tables', 'user_id'])
    assert.containsSubset(details, {
      user_id: 'leaver',
      requested_by: { type: 'api_key', name: 'leaver phone' },
      polar_deregistration: { outcome: 'deregistered', provider_status: 204 },
    })
    for (const [table, count] of Object.entries(before)) assert.equal(details.tables[table], count, table)
    assert.equal(details.tables.failed_jobs, 1)
    assert.equal(details.tables.queue_jobs, queuedBefore)
    // Table names and counts only: no stored value of the user's health data.
    assert.isTrue(Object.values(details.tables).every((count) => Number.isInteger(count)))
    const { tables: _tables, ...rest } = details
    assert.notMatch(JSON.stringify(rest), /hypnogram|sleep_score|heart_rate|samples|hrv/)

    // Gone for good: 404 (a service key), the erased user's key no longer exists, nothing cached is served.
    const again = await client.delete('/api/v1/users/leaver').header('X-API-Key', serviceKey)
    again.assertStatus(404)
    assert.equal(again.body().code, 'E_UNKNOWN_USER')
    ;(await client.get('/api/v1/users/leaver/sleep?days=7').header('X-API-Key', serviceKey)).assertStatus(404)
    ;(await client.get('/api/v1/users/leaver/sleep?days=7').header('X-API-Key', leaver.key)).assertStatus(401)
    ;(await client.get('/api/v1/users/stayer/sleep?days=7').header('X-API-Key', stayer.key)).assertStatus(200)
  }).timeout(120_000)

  test('another user\'s scoped key is 403, no key 401, a malformed id 422; nothing is deleted', async ({ client, assert }) => {
    const target = await createUser('target')
    const other = await createUser('other')
    const { plain: otherKey } = await (await app.container.make(ApiKeyService)).create('other key', other.externalId)
    ;(await client.delete('/api/v1/users/target').header('X-API-Key', otherKey)).assertStatus(403)
    ;(await client.delete('/api/v1/users/target')).assertStatus(401)
    const serviceKey = await serviceApiKey()
    const malformed = await client.delete('/api/v1/users/bad%20id').header('X-API-Key', serviceKey)
    malformed.assertStatus(422)
    assert.equal(malformed.body().errors[0].field, 'user_id')
    assert.isNotNull(await User.find(target.id))
    assert.equal(await AuditLog.query().where('action', 'user.delete').count('* as n').then((rows) => Number(rows[0].$extras.n)), 0)
  })

  test('a refusing Polar (revoked token, 401) or no token at all never blocks the erasure; the audit says what happened', async ({
    client,
    assert,
  }) => {
    const serviceKey = await serviceApiKey()
    const token = completeToken('refused_by_polar')
    ;(await client.post('/api/v1/users/refused_by_polar/sync/trigger?days=3').header('X-Provider-Token', token).header('X-API-Key', serviceKey)).assertStatus(200)
    const user = await User.findByOrFail('externalId', 'refused_by_polar')
    ctx().sim.setFault('users', { type: 'status', status: 401 })
    ;(await client.delete('/api/v1/users/refused_by_polar').header('X-API-Key', serviceKey)).assertStatus(204)
    assert.deepEqual(await rowsOf(user.id), { users: 0 })
    const refused = JSON.parse((await AuditLog.query().where('target', 'refused_by_polar').firstOrFail()).details!)
    assert.containsSubset(refused.polar_deregistration, { outcome: 'failed', provider_status: 401 })
    assert.isAbove(refused.tables.sleep_records, 0)

    ctx().sim.clearFaults()
    const unregistered = await createUser('never_connected')
    ;(await client.delete('/api/v1/users/never_connected').header('X-API-Key', serviceKey)).assertStatus(204)
    assert.isNull(await User.find(unregistered.id))
    const skipped = JSON.parse((await AuditLog.query().where('target', 'never_connected').firstOrFail()).details!)
    assert.containsSubset(skipped.polar_deregistration, { outcome: 'skipped', provider_status: null })
    assert.lengthOf(ctx().sim.requestsTo('users').filter((request) => request.method === 'DELETE'), 1)
  }).timeout(60_000)

  test('a sync running for the user makes the erasure wait: 409 and nothing deleted', async ({ client, assert }) => {
    const user = await createUser('busy')
    const held = lock.createLock(userSyncLockKey(user.id), '30s')
    await held.acquire()
    try {
      const response = await client.delete('/api/v1/users/busy').header('X-API-Key', await serviceApiKey())
      response.assertStatus(409)
      assert.equal(response.body().code, 'E_SYNC_IN_PROGRESS')
      assert.isNotNull(await User.find(user.id))
    } finally {
      await held.release()
    }
  })

  test('node ace user:delete asks first, --force does not; an unknown id fails', async ({ assert }) => {
    const kept = await createUser('cli_kept')
    const declined = await ace.create(UserDeleteCommand, ['cli_kept'])
    declined.ui.switchMode('raw')
    declined.prompt.trap('Erase user "cli_kept" and every row stored for them? This cannot be undone.').reject()
    await declined.exec()
    assert.isNotNull(await User.find(kept.id))

    const confirmed = await ace.create(UserDeleteCommand, ['cli_kept'])
    confirmed.ui.switchMode('raw')
    confirmed.prompt.trap('Erase user "cli_kept" and every row stored for them? This cannot be undone.').accept()
    await confirmed.exec()
    assert.equal(confirmed.exitCode ?? 0, 0)
    assert.isNull(await User.find(kept.id))

    const forced = await createUser('cli_forced')
    await db.table('sleep_records').insert({ user_id: forced.id, date: TODAY, created_at: `${TODAY} 08:00:00` })
    const command = await ace.create(UserDeleteCommand, ['cli_forced', '--force'])
    command.ui.switchMode('raw')
    await command.exec()
    assert.equal(command.exitCode ?? 0, 0)
    assert.deepEqual(await rowsOf(forced.id), { users: 0 })
    const printed = command.logger.getLogs().map((log) => log.message).join('\n')
    assert.include(printed, 'Erased user "cli_forced"')
    assert.include(printed, 'Polar de-registration: skipped')
    const audit = await AuditLog.query().where('target', 'cli_forced').firstOrFail()
    assert.equal(audit.actorType, 'console')

    const unknown = await ace.create(UserDeleteCommand, ['cli_forced', '--force'])
    unknown.ui.switchMode('raw')
    await unknown.exec()
    assert.equal(unknown.exitCode, 1)
  })
})
