import { gzipSync } from 'node:zlib'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import RawPayload from '#models/raw_payload'
import User from '#models/user'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { RederiveService } from '#services/records/rederive_service'
import { UserSyncService } from '#services/sync/user_sync_service'
import { completeToken, simulatorPerTest } from '#tests/functional/sync/simulator_context'

const TODAY = '2026-03-15'
const YEAR = 365

/** Bytes the database spends on `raw_payloads`: table, TOAST and indexes (PostgreSQL) or their b-tree pages (SQLite). */
async function archiveBytesOnDisk(): Promise<number> {
  if (db.connection().dialect.name === 'postgres') {
    const result = await db.rawQuery(`select pg_total_relation_size('raw_payloads') as bytes`)
    return Number(result.rows[0].bytes)
  }
  const objects = await db.rawQuery(`select name from sqlite_master where tbl_name = 'raw_payloads'`)
  const names = (objects as Array<{ name: string }>).map((o) => o.name)
  const [{ bytes }] = await db.rawQuery(`select sum(pgsize) as bytes from dbstat where name in (${names.map(() => '?').join(', ')})`, names)
  return Number(bytes)
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(2)} MB`

test.group('Sync | raw-payload archive size', (group) => {
  const ctx = simulatorPerTest(group, TODAY, { window: YEAR })

  /**
   * The storage cost of a user-year: a complete simulated user (every daily type, biosensing,
   * SleepWise, about five exercises a week with samples and routes) synced over 365 days. Prints
   * the figures the README quotes and keeps them under its stated bound.
   */
  test('a user-year of archived payloads stays under 10 MB on disk', async ({ assert }) => {
    const token = completeToken('yearling')
    const user = await User.create({ externalId: 'yearling', isActive: true, polarUserId: String(ctx().sim.polarUserIdOf(token)) })
    await (await app.container.make(ProviderTokenService)).store(user, token)
    const outcome = await (await app.container.make(UserSyncService)).sync(user, { trigger: 'command', days: YEAR })
    assert.equal(outcome.status, 'success')

    const entries = await RawPayload.query().where('userId', user.id)
    const perType = new Map<string, { count: number; json: number; stored: number; gzip: number }>()
    for (const entry of entries) {
      const text = entry.payloadText()
      const sizes = perType.get(entry.type) ?? { count: 0, json: 0, stored: 0, gzip: 0 }
      sizes.count++
      sizes.json += Buffer.byteLength(text)
      sizes.stored += entry.payload.length
      sizes.gzip += gzipSync(text).length
      perType.set(entry.type, sizes)
    }
    const total = [...perType.values()].reduce(
      (sum, s) => ({ count: sum.count + s.count, json: sum.json + s.json, stored: sum.stored + s.stored, gzip: sum.gzip + s.gzip }),
      { count: 0, json: 0, stored: 0, gzip: 0 }
    )
    const onDisk = await archiveBytesOnDisk()
    const lines = [...perType]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, s]) => `  ${type.padEnd(20)} ${String(s.count).padStart(5)} items ${mb(s.json).padStart(9)} JSON ${mb(s.stored).padStart(9)} brotli ${mb(s.gzip).padStart(9)} gzip`)

    // Re-deriving the year gives the rows back unchanged (the chunked path over every type).
    const service = await app.container.make(RederiveService)
    const started = performance.now()
    const report = await service.rederiveUser(user, service.typesOf())
    const rederiveMs = performance.now() - started
    assert.isNull(report.error)
    assert.deepEqual(report.types.filter((t) => t.added + t.changed > 0), [])
    console.log(
      [
        `raw archive, one user-year on ${db.connection().dialect.name}:`,
        ...lines,
        `  total ${total.count} items: ${mb(total.json)} JSON, ${mb(total.stored)} stored (brotli), ${mb(total.gzip)} as gzip; ${mb(onDisk)} on disk with indexes`,
        `  data:rederive of the year: ${(rederiveMs / 1000).toFixed(1)} s`,
      ].join('\n')
    )
    assert.isBelow(onDisk, 10 * 1_048_576)
  }).timeout(180_000)
})
