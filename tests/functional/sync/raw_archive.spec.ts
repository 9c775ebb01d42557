import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import db from '@adonisjs/lucid/services/db'
import RawPayload from '#models/raw_payload'
import User from '#models/user'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { DATA_TYPES, dataType } from '#services/records/data_types'
import { RawArchiveService, canonicalJson, contentHashOf, naturalKeyAttributes, naturalKeyText } from '#services/records/raw_archive_service'
import { PolarEventService } from '#services/sync/polar_event_service'
import { sqlDuring } from '#tests/helpers/sql_log'
import { UserSyncService } from '#services/sync/user_sync_service'
import { completeToken, simulatorPerTest, type SimulatorContext } from '#tests/functional/sync/simulator_context'

const TODAY = '2026-03-15'
const NEXT_DAY = '2026-03-16'
const DAYS = 10

/** A user connected with a complete simulated profile and bound to its Polar account. */
async function connectedUser(ctx: SimulatorContext, externalId: string) {
  const token = completeToken(externalId)
  const user = await User.create({ externalId, isActive: true, polarUserId: String(ctx.sim.polarUserIdOf(token)) })
  await (await app.container.make(ProviderTokenService)).store(user, token)
  return { user, token }
}

async function sync(user: User, days = DAYS) {
  return (await app.container.make(UserSyncService)).sync(user, { trigger: 'command', days })
}

/** Every archive row of a user, oldest first. */
const archiveOf = (user: User) => RawPayload.query().where('userId', user.id).orderBy('id')

/** Natural-key texts of a type's stored rows. */
async function storedKeys(user: User, key: (typeof DATA_TYPES)[number]['key']) {
  const type = dataType(key)
  const rows = await type.model.query().where('userId', user.id)
  return new Set(rows.map((row) => naturalKeyText(type, row as unknown as Record<string, unknown>)))
}

/** Types that make calls of their own (types with `from` archive nothing). */
const PULLING = DATA_TYPES.filter((type) => type.from === null)

test.group('Sync | raw-payload archive', (group) => {
  const ctx = simulatorPerTest(group, TODAY)

  test('a sync archives one entry per natural key of every pulled type, as the rows have them', async ({ assert }) => {
    const { user } = await connectedUser(ctx(), 'archivist')
    const outcome = await sync(user)
    assert.equal(outcome.status, 'success')
    const archive = await archiveOf(user)
    assert.isAbove(archive.length, 0)

    for (const type of PULLING) {
      const entries = archive.filter((entry) => entry.type === type.key)
      const keys = entries.map((entry) => entry.naturalKey)
      assert.equal(new Set(keys).size, keys.length, `${type.key}: one version per natural key`)
      assert.notInclude(keys.join(','), 'unmapped:', type.key)
      assert.deepEqual(new Set(keys), await storedKeys(user, type.key), type.key)
    }
    // Types mapped from another's items keep nothing of their own.
    for (const type of DATA_TYPES.filter((t) => t.from !== null)) {
      assert.lengthOf(archive.filter((entry) => entry.type === type.key), 0, type.key)
    }
    // Each payload is the item's canonical JSON, compressed, and its hash is the content hash.
    for (const entry of archive) {
      const text = entry.payloadText()
      assert.equal(contentHashOf(text), entry.contentHash)
      assert.equal(canonicalJson(entry.payloadJson()), text)
      assert.isBelow(entry.payload.length, Buffer.byteLength(text))
      assert.equal(entry.fetchedAt.toMillis(), entry.lastSeenAt.toMillis())
    }
    const sleep = archive.find((entry) => entry.type === 'sleep' && entry.naturalKey === TODAY)!
    assert.equal((sleep.payloadJson() as { date: string }).date, TODAY)
  })

  test('an identical sync within a day writes nothing to the archive; a day later it moves last_seen_at', async ({ assert }) => {
    const { user } = await connectedUser(ctx(), 'repeat')
    await sync(user)
    const first = await archiveOf(user)
    ctx().clock.set(`${TODAY}T15:30:00`)
    const statements = await sqlDuring(() => sync(user))
    const second = await archiveOf(user)
    assert.deepEqual(
      second.map((e) => [e.id, e.contentHash, e.lastSeenAt.toMillis()]),
      first.map((e) => [e.id, e.contentHash, e.lastSeenAt.toMillis()])
    )
    assert.lengthOf(statements.filter((sql) => /^\s*(insert|update)\b[^;]*raw_payloads/i.test(sql)), 0)

    // The next day the same window is fetched again (only its first day left it): each entry seen is moved.
    ctx().clock.set(`${NEXT_DAY}T12:00:00`)
    await sync(user)
    const third = await archiveOf(user)
    // Exercises already stored are not fetched again: only their first fetch is archived.
    const refetched = third.filter((entry) => entry.type !== 'exercises' && entry.fetchedAt.toMillis() === first[0].fetchedAt.toMillis())
    const moved = refetched.filter((entry) => entry.lastSeenAt.toISODate() === NEXT_DAY)
    assert.isAbove(moved.length, refetched.length / 2)
    for (const entry of moved) {
      // Fetched on the 15th at 12:00, seen again on the 16th at 12:00.
      assert.equal(entry.lastSeenAt.toMillis() - entry.fetchedAt.toMillis(), 24 * 3_600_000, `${entry.type} ${entry.naturalKey}`)
    }
  })

  test('a version served again after another version of its key is moved past it at once', async ({ assert }) => {
    const { user } = await connectedUser(ctx(), 'flipper')
    await sync(user)
    const archive = await app.container.make(RawArchiveService)
    const first = (await archiveOf(user)).find((e) => e.type === 'recharge')!
    const servedFirst = first.payloadJson() as Record<string, unknown>
    const servedNext = { ...servedFirst, a_field_polar_added: 1 }
    ctx().clock.set(`${TODAY}T13:00:00`)
    await archive.store(db.connection(), user.id, 'recharge', [servedNext])
    ctx().clock.set(`${TODAY}T14:00:00`)
    await archive.store(db.connection(), user.id, 'recharge', [servedFirst])
    const versions = (await archiveOf(user)).filter((e) => e.naturalKey === first.naturalKey && e.type === 'recharge')
    assert.lengthOf(versions, 2)
    const [a, b] = versions
    assert.equal(a.id, first.id)
    assert.equal(a.lastSeenAt.toMillis(), ctx().clock.now().toMillis(), 'served last, seen last')
    assert.isAbove(a.lastSeenAt.toMillis(), b.lastSeenAt.toMillis())

    // Served again within the day while it is the newest-seen version: not moved.
    ctx().clock.set(`${TODAY}T15:00:00`)
    await archive.store(db.connection(), user.id, 'recharge', [servedFirst])
    const again = await RawPayload.findOrFail(a.id)
    assert.equal(again.lastSeenAt.toMillis(), a.lastSeenAt.toMillis())
  })

  test('changed data for the same natural key adds a second version beside the first', async ({ assert }) => {
    const { user, token } = await connectedUser(ctx(), 'changer')
    await sync(user)
    const before = await archiveOf(user)
    const recharges = before.filter((e) => e.type === 'recharge').length
    assert.isAbove(recharges, 0)

    ctx().sim.setProfile(token, { hrvBase: 140 })
    ctx().clock.set(`${TODAY}T16:00:00`)
    await sync(user)
    const after = await archiveOf(user)
    const versions = after.filter((e) => e.type === 'recharge')
    assert.lengthOf(versions, recharges * 2)
    const byKey = Map.groupBy(versions, (e) => e.naturalKey)
    for (const [date, pair] of byKey) {
      assert.lengthOf(pair, 2, date)
      assert.notEqual(pair[0].contentHash, pair[1].contentHash)
      assert.isAbove(pair[1].fetchedAt.toMillis(), pair[0].fetchedAt.toMillis())
    }
    // Unchanged types gained nothing.
    assert.equal(after.filter((e) => e.type === 'cardio_load').length, before.filter((e) => e.type === 'cardio_load').length)
  })

  test('a webhook event fetch archives its items under the same keys a full sync uses', async ({ assert }) => {
    const { user } = await connectedUser(ctx(), 'pushed')
    const events = await app.container.make(PolarEventService)
    await events.handle(user, { event: 'SLEEP', polarUserId: user.polarUserId!, date: TODAY })
    await events.handle(user, { event: 'CONTINUOUS_HEART_RATE', polarUserId: user.polarUserId!, date: TODAY })
    const archive = await archiveOf(user)
    assert.sameMembers(
      archive.map((e) => `${e.type} ${e.naturalKey}`),
      [`sleep ${TODAY}`, `recharge ${TODAY}`, `heart_rate ${TODAY}`]
    )

    // The same items through the lists of a full sync: no second version for that date.
    ctx().clock.set(`${TODAY}T18:00:00`)
    await sync(user, 3)
    const after = await archiveOf(user)
    for (const key of ['sleep', 'recharge', 'heart_rate']) {
      assert.lengthOf(after.filter((e) => e.type === key && e.naturalKey === TODAY), 1, key)
    }
  })

  test('RAW_ARCHIVE_ENABLED=false archives nothing and the sync stores its rows', async ({ assert, cleanup }) => {
    const previous = env.get('RAW_ARCHIVE_ENABLED')
    env.set('RAW_ARCHIVE_ENABLED', false)
    cleanup(() => env.set('RAW_ARCHIVE_ENABLED', previous as boolean))
    const { user } = await connectedUser(ctx(), 'unarchived')
    const outcome = await sync(user)
    assert.equal(outcome.status, 'success')
    assert.isAbove(outcome.rowsWritten, 0)
    assert.lengthOf(await archiveOf(user), 0)
  })

  test('an archive failure keeps the rows, leaves the status and is noted in the sync run', async ({ assert, cleanup }) => {
    class FailingArchive extends RawArchiveService {
      async store(): Promise<number> {
        throw new Error('disk full')
      }
    }
    app.container.swap(RawArchiveService, () => new FailingArchive(ctx().clock))
    cleanup(() => app.container.restore(RawArchiveService))
    const { user } = await connectedUser(ctx(), 'fragile')
    const outcome = await sync(user)
    assert.equal(outcome.status, 'success')
    assert.deepEqual(outcome.errors, {})
    assert.equal(outcome.results.sleep, DAYS)
    const [{ n }] = await db.from('sleep_records').where('user_id', user.id).count('* as n')
    assert.equal(Number(n), DAYS)
    assert.lengthOf(await archiveOf(user), 0)
    const run = await db.from('sync_runs').where('user_id', user.id).firstOrFail()
    const errors = JSON.parse(run.errors)
    assert.match(errors.raw_archive, /^archiving recharge, sleep, .* failed; the rows were stored$/)
    assert.notInclude(run.errors, 'disk full')
  })

  test('items the mapper rejects are kept as unmapped:<hash>', async ({ assert }) => {
    const { user } = await connectedUser(ctx(), 'odd')
    const archive = await app.container.make(RawArchiveService)
    const odd = { date: 'not a date', polar_user: 'x' }
    await archive.store(db.connection(), user.id, 'sleep', [odd, odd])
    const [entry] = await archiveOf(user)
    assert.equal(entry.naturalKey, `unmapped:${entry.contentHash}`)
    assert.deepEqual(entry.payloadJson(), odd)
    assert.lengthOf(await archiveOf(user), 1)
    assert.deepEqual(naturalKeyAttributes(dataType('body_temperature')), ['startTime', 'measurementType'])
  })

  test('content already archived is only touched: no payload sent again; the same content under another key is a new entry', async ({ assert }) => {
    const { user } = await connectedUser(ctx(), 'toucher')
    await sync(user)
    const first = await archiveOf(user)
    const recharge = first.find((e) => e.type === 'recharge')!
    const recharges = first.filter((e) => e.type === 'recharge')
    const archive = await app.container.make(RawArchiveService)
    const items = recharges.map((e) => e.payloadJson())

    // As a mapper fix would: one entry's natural key is no longer what its content maps to.
    await db.from(RawPayload.table).where('id', recharge.id).update({ natural_key: 'an-old-key' })
    ctx().clock.set(`${NEXT_DAY}T18:00:00`)
    const statements = await sqlDuring(() => archive.store(db.connection(), user.id, 'recharge', items))
    const writes = statements.filter((sql) => /^\s*(insert|update)/i.test(sql))
    // One touch of the known entries (a day later: due), one insert of the one entry whose key moved.
    assert.lengthOf(writes, 2)
    assert.match(writes[0], /^update/i)
    assert.match(writes[1], /^insert/i)

    const after = await archiveOf(user)
    const moved = after.find((e) => e.id === recharge.id)!
    assert.equal(moved.lastSeenAt.toMillis(), recharge.lastSeenAt.toMillis(), 'the entry under the old key was not seen again')
    const added = after.filter((e) => e.type === 'recharge' && e.contentHash === recharge.contentHash && e.id !== recharge.id)
    assert.lengthOf(added, 1)
    assert.equal(added[0].naturalKey, recharge.naturalKey)
    assert.equal(added[0].fetchedAt.toISO(), added[0].lastSeenAt.toISO())
    assert.deepEqual(added[0].payloadJson(), items[0])
    for (const entry of after.filter((e) => e.type === 'recharge' && e.id !== recharge.id && e.id !== added[0].id)) {
      const before = first.find((e) => e.id === entry.id)!
      assert.equal(entry.fetchedAt.toMillis(), before.fetchedAt.toMillis())
      assert.isAbove(entry.lastSeenAt.toMillis(), before.lastSeenAt.toMillis(), entry.naturalKey)
      assert.deepEqual(Buffer.from(entry.payload), Buffer.from(before.payload))
    }
    assert.lengthOf(after, first.length + 1)
  })
})
