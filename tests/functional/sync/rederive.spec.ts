import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import ace from '@adonisjs/core/services/ace'
import lock from '@adonisjs/lock/services/main'
import db from '@adonisjs/lucid/services/db'
import DataRederiveCommand from '#commands/data_rederive'
import User from '#models/user'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { DATA_TYPES, dataType } from '#services/records/data_types'
import { RederiveService } from '#services/records/rederive_service'
import { UserSyncService, userSyncLockKey } from '#services/sync/user_sync_service'
import { buildProfile } from '#simulators/polar/profile'
import { completeToken, simulatorPerTest, type SimulatorContext } from '#tests/functional/sync/simulator_context'

const TODAY = '2026-03-15'
const DAYS = 14

async function connectedUser(ctx: SimulatorContext, externalId: string) {
  const token = completeToken(externalId)
  const user = await User.create({ externalId, isActive: true, polarUserId: String(ctx.sim.polarUserIdOf(token)) })
  await (await app.container.make(ProviderTokenService)).store(user, token)
  return user
}

async function sync(user: User) {
  const outcome = await (await app.container.make(UserSyncService)).sync(user, { trigger: 'command', days: DAYS })
  if (outcome.status !== 'success') throw new Error(`sync ${outcome.status}`)
}

/**
 * Every stored data row of a user per table, without the surrogate id and the write times,
 * ordered by natural key: what a clean sync and a re-derive must agree on.
 */
async function dataRows(user: User): Promise<Record<string, Record<string, unknown>[]>> {
  const out: Record<string, Record<string, unknown>[]> = {}
  for (const type of DATA_TYPES) {
    const rows = await db.from(type.table).where('user_id', user.id).orderBy(type.naturalKey)
    out[type.table] = rows.map(({ id: _id, created_at: _c, updated_at: _u, ...row }) => row)
  }
  return out
}

const dataVersion = async (user: User) => Number((await db.from('users').where('id', user.id).firstOrFail()).data_version)

async function rederive(args: string[]) {
  const command = await ace.create(DataRederiveCommand, args)
  command.ui.switchMode('raw')
  await command.exec()
  return { exitCode: command.exitCode ?? 0, printed: command.logger.getLogs().map((l) => l.message).join('\n') }
}

test.group('Sync | data:rederive', (group) => {
  const ctx = simulatorPerTest(group, TODAY)

  test('corrupted and deleted rows come back equal to a clean sync; the data version is bumped', async ({ assert }) => {
    const user = await connectedUser(ctx(), 'healer')
    const bystander = await connectedUser(ctx(), 'bystander')
    await sync(user)
    await sync(bystander)
    const clean = await dataRows(user)
    const bystanderRows = await dataRows(bystander)

    await db.from('sleep_records').where('user_id', user.id).update({ sleep_score: -1 })
    await db.from('nightly_recharges').where('user_id', user.id).update({ hrv_avg: null })
    await db.from('heart_rate_days').where('user_id', user.id).where('date', TODAY).delete()
    await db.from('exercise_samples').where('user_id', user.id).delete()
    const version = await dataVersion(user)
    const bystanderVersion = await dataVersion(bystander)

    const { exitCode, printed } = await rederive(['--user', 'healer'])
    assert.equal(exitCode, 0, printed)
    assert.deepEqual(await dataRows(user), clean)
    assert.isAbove(await dataVersion(user), version)
    // Another user is left as it was.
    assert.deepEqual(await dataRows(bystander), bystanderRows)
    assert.equal(await dataVersion(bystander), bystanderVersion)
    assert.include(printed, 'healer: ')
    assert.match(printed, /data version bumped, analytics recomputed/)
  })

  test('the report counts added, changed and unchanged rows per type', async ({ assert }) => {
    const user = await connectedUser(ctx(), 'counted')
    await sync(user)
    const sleepRows = await db.from('sleep_records').where('user_id', user.id).orderBy('date')
    await db.from('sleep_records').where('user_id', user.id).where('date', sleepRows[0].date).update({ sleep_score: 0 })
    await db.from('sleep_records').where('user_id', user.id).where('date', sleepRows[1].date).delete()

    const service = await app.container.make(RederiveService)
    const report = await service.rederiveUser(user, service.typesOf())
    assert.isNull(report.error)
    const sleep = report.types.find((t) => t.type === 'sleep')!
    assert.deepEqual(sleep, { type: 'sleep', payloads: sleepRows.length, rows: sleepRows.length, added: 1, changed: 1, unchanged: sleepRows.length - 2 })
    for (const t of report.types.filter((t) => t.type !== 'sleep')) {
      assert.equal(t.added + t.changed, 0, t.type)
      assert.equal(t.unchanged, t.rows, t.type)
    }
    // Exercise samples are derived from the exercises' archived details.
    const samples = report.types.find((t) => t.type === 'exercise_samples')!
    const exercises = report.types.find((t) => t.type === 'exercises')!
    assert.equal(samples.payloads, exercises.payloads)
    assert.isTrue(report.written)

    // Nothing left to change: a second run only confirms.
    const again = await service.rederiveUser(user, service.typesOf())
    assert.isTrue(again.types.every((t) => t.added + t.changed === 0))
    assert.isFalse(again.written)
  })

  test('a mapper fixed after the sync re-derives the rows it got wrong', async ({ assert, cleanup }) => {
    const user = await connectedUser(ctx(), 'fixed')
    await sync(user)
    const clean = await dataRows(user)

    // A release with a sleep mapper bug (scores lost, every stage as deep sleep) syncs again.
    const sleep = dataType('sleep')
    const correct = sleep.map
    cleanup(() => {
      sleep.map = correct
    })
    sleep.map = async (items, mapCtx) =>
      (await correct(items, mapCtx)).map((row) => ({ ...row, sleepScore: null, deepSleepSeconds: row.lightSleepSeconds }))
    ctx().clock.set(`${TODAY}T18:00:00`)
    await sync(user)
    assert.notDeepEqual((await dataRows(user)).sleep_records, clean.sleep_records)

    // The fix ships: re-derive sleep only.
    sleep.map = correct
    const { exitCode, printed } = await rederive(['--type', 'sleep'])
    assert.equal(exitCode, 0, printed)
    assert.deepEqual(await dataRows(user), clean)
    assert.match(printed, new RegExp(`fixed: 0 added, ${DAYS} changed`))
  })

  test('of several archived versions the one Polar served last is re-derived', async ({ assert }) => {
    const user = await connectedUser(ctx(), 'versions')
    const token = completeToken('versions')
    await sync(user)
    const original = (await dataRows(user)).nightly_recharges

    ctx().sim.setProfile(token, { hrvBase: 140 })
    ctx().clock.set(`${TODAY}T14:00:00`)
    await sync(user)
    const revised = (await dataRows(user)).nightly_recharges
    assert.notDeepEqual(revised, original)
    await db.from('nightly_recharges').where('user_id', user.id).update({ hrv_avg: 1 })
    await rederive(['--type', 'recharge'])
    assert.deepEqual((await dataRows(user)).nightly_recharges, revised)

    // Polar goes back to the first values: that version is the newest seen again.
    ctx().sim.setProfile(token, { hrvBase: buildProfile(Number(user.polarUserId)).hrvBase })
    ctx().clock.set(`${TODAY}T16:00:00`)
    await sync(user)
    assert.deepEqual((await dataRows(user)).nightly_recharges, original)
    await db.from('nightly_recharges').where('user_id', user.id).update({ hrv_avg: 1 })
    await rederive(['--type', 'recharge'])
    assert.deepEqual((await dataRows(user)).nightly_recharges, original)
    const [{ n }] = await db.from('raw_payloads').where({ user_id: user.id, type: 'recharge' }).count('* as n')
    assert.equal(Number(n), DAYS * 2)
  })

  test('--dry-run reports the changes and writes nothing', async ({ assert }) => {
    const user = await connectedUser(ctx(), 'dry')
    await sync(user)
    await db.from('cardio_loads').where('user_id', user.id).update({ cardio_load: 999 })
    const corrupted = await dataRows(user)
    const version = await dataVersion(user)

    const { exitCode, printed } = await rederive(['--user', 'dry', '--type', 'cardio_load', '--dry-run'])
    assert.equal(exitCode, 0, printed)
    assert.match(printed, new RegExp(`dry: 0 added, ${DAYS} changed \\(dry run: nothing was written\\)`))
    assert.deepEqual(await dataRows(user), corrupted)
    assert.equal(await dataVersion(user), version)
  })

  test('a user whose sync is running is skipped with an error and nothing written', async ({ assert, cleanup }) => {
    const user = await connectedUser(ctx(), 'busy')
    await sync(user)
    await db.from('sleep_records').where('user_id', user.id).update({ sleep_score: 0 })
    const held = lock.createLock(userSyncLockKey(user.id), '30s')
    assert.isTrue(await held.acquireImmediately())
    cleanup(() => held.release())
    const { exitCode, printed } = await rederive(['--user', 'busy'])
    assert.equal(exitCode, 1)
    assert.include(printed, 'A sync is already running for user "busy"')
    const scores = await db.from('sleep_records').where('user_id', user.id).distinct('sleep_score')
    assert.deepEqual(scores.map((r) => r.sleep_score), [0])
  })

  test('an unknown type or user is refused with the list of types', async ({ assert }) => {
    await connectedUser(ctx(), 'someone')
    const badType = await rederive(['--type', 'naps'])
    assert.equal(badType.exitCode, 1)
    assert.match(badType.printed, /Unknown type "naps"\. Types: sleep, recharge, /)
    const badUser = await rederive(['--user', 'nobody'])
    assert.equal(badUser.exitCode, 1)
    assert.include(badUser.printed, 'nobody')
    const nothing = await rederive([])
    assert.equal(nothing.exitCode, 0)
    assert.include(nothing.printed, 'No user has archived payloads')
  })
})
