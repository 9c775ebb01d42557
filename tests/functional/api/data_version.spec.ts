import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { DataVersionService } from '#services/data_version_service'
import { HotQueries } from '#services/hot_queries'
import { userWithApiKey } from '#tests/helpers/fixtures'
import { truncateDatabase } from '#tests/helpers/database'

/**
 * The data version every cached answer is keyed on (README "Caching and validators"): read for
 * every request, never remembered, and shared only by requests that were all waiting before the
 * read started. Real commits (no global transaction), so the reads take the production path: a
 * prepared statement on the driver, synchronous on SQLite.
 */
test.group('Data version reads', (group) => {
  group.each.setup(() => truncateDatabase())

  /** Counts the version reads HotQueries runs until the test ends. */
  function countReads(cleanup: (fn: () => void) => void) {
    const reads: unknown[][] = []
    const all = HotQueries.all
    HotQueries.all = (sql, bindings, connection) => {
      if (/data_version from users/.test(sql)) reads.push(bindings ?? [])
      return all(sql, bindings, connection)
    }
    cleanup(() => {
      HotQueries.all = all
    })
    return reads
  }

  test('requests waiting together share one read; each read starts after all of its requests arrived', async ({ assert, cleanup }) => {
    const { user } = await userWithApiKey()
    const other = await userWithApiKey()
    const versions = await app.container.make(DataVersionService)
    const reads = countReads(cleanup)

    const together = await Promise.all([
      ...Array.from({ length: 12 }, () => versions.current(user.externalId)),
      versions.current(other.user.externalId),
    ])
    assert.lengthOf(reads, 2, 'one read per user for requests of the same turn')
    assert.deepEqual(new Set(together.slice(0, 12).map((version) => JSON.stringify(version))).size, 1)
    assert.equal(together[0]!.id, user.id)
    assert.equal(together[12]!.id, other.user.id)

    // A bump committed before the requests: every one of them sees it.
    const before = together[0]!.version
    await DataVersionService.bump(db.connection(), user.id)
    const after = await Promise.all(Array.from({ length: 5 }, () => versions.current(user.externalId)))
    assert.deepEqual(
      after.map((version) => version!.version),
      Array(5).fill(before + 1)
    )
    assert.lengthOf(reads, 3)
  })

  test('a request arriving while a read runs waits for the next one, which sees a bump committed meanwhile', async ({ assert, cleanup }) => {
    const { user } = await userWithApiKey()
    const versions = await app.container.make(DataVersionService)
    const start = (await versions.current(user.externalId))!.version
    const reads = countReads(cleanup)
    const first = versions.current(user.externalId)
    // Queued for the turn after the first read started, behind a committed bump.
    await new Promise((resolve) => setImmediate(resolve))
    const bumped = DataVersionService.bump(db.connection(), user.id).then(() => versions.current(user.externalId))
    const [a, b] = await Promise.all([first, bumped])
    assert.equal(b!.version, start + 1, 'the later request sees the bump')
    // The first read may itself run after the bump commits (a pipelined statement is sent at the end
    // of its turn): never older than its request, and never shared with the later one.
    assert.include([start, start + 1], a!.version)
    assert.lengthOf(reads, 2)
  })

  test('an unknown user reads as null, and is not remembered once created', async ({ assert }) => {
    const versions = await app.container.make(DataVersionService)
    assert.isNull(await versions.current('nobody_here'))
    const { user } = await userWithApiKey()
    assert.equal((await versions.current(user.externalId))!.id, user.id)
  })
})
