import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import User from '#models/user'
import { PG_UPSERT_BATCH_SIZE, UPSERT_BATCH_SIZE, upsertRows } from '#services/sync/queries'
import { SYNC_TYPES, type SyncTypeDefinition } from '#services/sync/sync_types'
import { freshDatabase } from '#tests/functional/sync/simulator_context'

const BOOKKEEPING = new Set(['id', 'user_id', 'created_at', 'updated_at'])

/** Strings a literal or array encoding could get wrong: quotes, backslashes, braces, commas, NULL, non-ASCII. */
const TEXT = JSON.stringify({ note: 'a "quoted" \\ back\\slash, {brace} NULL é 🙂', samples: [[0, 61.5], [300, null]], empty: '' })

interface Column {
  name: string
  kind: 'integer' | 'float' | 'boolean' | 'string'
  nullable: boolean
  maxLength: number | null
}

/** The data columns of a table as the database describes them. */
async function columnsOf(table: string): Promise<Column[]> {
  const info = await db.connection().getWriteClient().table(table).columnInfo()
  return Object.entries(info)
    .filter(([name]) => !BOOKKEEPING.has(name))
    .map(([name, c]) => {
      const type = c.type.toLowerCase()
      const kind = /bool/.test(type) ? 'boolean' : /int/.test(type) ? 'integer' : /real|float|double|numeric/.test(type) ? 'float' : 'string'
      return { name, kind, nullable: c.nullable, maxLength: c.maxLength ? Number(c.maxLength) : null }
    })
}

const toProperty = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())

/** A mapper row (camelCase properties) with a value in every column, or null where allowed. */
function rowFor(columns: Column[], type: SyncTypeDefinition, n: number, nulls: boolean): Record<string, unknown> {
  const row: Record<string, unknown> = {}
  for (const column of columns) {
    let value: unknown
    if (type.naturalKey.includes(column.name)) value = column.kind === 'integer' ? 1_760_000_000_000 + n : `2026-01-${String(10 + n).padStart(2, '0')}`
    else if (nulls && column.nullable) value = null
    else if (column.kind === 'integer') value = column.name.includes('timestamp') ? 1_760_000_123_456 : -42 - n
    else if (column.kind === 'float') value = 36.6 + n
    else if (column.kind === 'boolean') value = n % 2 === 0
    else value = column.maxLength && column.maxLength < TEXT.length ? `a"\\,{}é${n}`.slice(0, column.maxLength) : TEXT
    row[toProperty(column.name)] = value
  }
  return row
}

/** What the table holds for a user, bookkeeping columns left out, in natural-key order. */
async function stored(type: SyncTypeDefinition, userId: number, withBookkeeping = false) {
  const rows = await db.from(type.table).where('user_id', userId).orderBy(type.naturalKey)
  if (withBookkeeping) return rows
  return rows.map((r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([k]) => !BOOKKEEPING.has(k))))
}

const dataVersion = async (userId: number) => Number((await db.from('users').where('id', userId).firstOrFail()).data_version)

test.group('Sync | upsert', (group) => {
  group.each.setup(() => freshDatabase())

  test('every type round-trips every column (text, JSON, numbers, booleans, nulls) as a plain insert stores it', async ({ assert }) => {
    const reference = await User.create({ externalId: 'reference', isActive: true })
    const synced = await User.create({ externalId: 'synced', isActive: true })
    const now = DateTime.now()
    for (const type of SYNC_TYPES) {
      const columns = await columnsOf(type.table)
      const rows = [rowFor(columns, type, 1, false), rowFor(columns, type, 2, true), rowFor(columns, type, 3, false)]
      // The reference: each row inserted as it stands through the query builder.
      for (const row of rows) {
        const record: Record<string, unknown> = { user_id: reference.id, created_at: now.toJSDate(), updated_at: now.toJSDate() }
        for (const column of columns) record[column.name] = row[toProperty(column.name)]
        await db.table(type.table).insert(record)
      }
      assert.equal(await upsertRows(db.connection(), type.table, synced.id, type.naturalKey, rows, now), 3, type.table)
      const expected = await stored(type, reference.id)
      assert.lengthOf(expected, 3, type.table)
      assert.deepEqual(await stored(type, synced.id), expected, type.table)
    }
  })

  test('a re-sync of identical rows leaves every table identical; a changed row is updated', async ({ assert }) => {
    const user = await User.create({ externalId: 'resync', isActive: true })
    const first = DateTime.fromISO('2026-01-20T10:00:00Z')
    const later = DateTime.fromISO('2026-01-21T10:00:00Z')
    for (const type of SYNC_TYPES) {
      const columns = await columnsOf(type.table)
      const rows = [rowFor(columns, type, 1, false), rowFor(columns, type, 2, true)]
      await upsertRows(db.connection(), type.table, user.id, type.naturalKey, rows, first)
      const before = await stored(type, user.id, true)
      const version = await dataVersion(user.id)

      assert.equal(await upsertRows(db.connection(), type.table, user.id, type.naturalKey, rows, later), 2, type.table)
      assert.deepEqual(await stored(type, user.id, true), before, type.table)
      assert.equal(await dataVersion(user.id), version, `${type.table}: nothing changed, the data version stays`)
      if (db.connection().dialect.name === 'postgres') {
        // Not even locked: a row lock would write every unchanged row's tuple and the WAL again.
        const tuples = await db.rawQuery(`select xmax::text as xmax from "${type.table}" where user_id = ?`, [user.id])
        assert.deepEqual(tuples.rows.map((t: { xmax: string }) => t.xmax), ['0', '0'], type.table)
      }

      const changed = { ...rows[1] }
      const column = columns.find((c) => !type.naturalKey.includes(c.name) && c.kind !== 'boolean')!
      changed[toProperty(column.name)] = column.kind === 'string' ? 'x' : 7
      await upsertRows(db.connection(), type.table, user.id, type.naturalKey, [rows[0], changed], later)
      const after = await stored(type, user.id, true)
      assert.deepEqual(after[0], before[0], type.table)
      assert.equal(after[1].id, before[1].id, type.table)
      assert.equal(String(after[1][column.name]), column.kind === 'string' ? 'x' : '7', type.table)
      assert.notDeepEqual(after[1].updated_at, before[1].updated_at, type.table)
      assert.deepEqual(after[1].created_at, before[1].created_at, type.table)
      assert.isAbove(await dataVersion(user.id), version, `${type.table}: a changed row bumps the data version`)
    }
  })

  test('rows repeating a natural key keep the last one', async ({ assert }) => {
    const user = await User.create({ externalId: 'dupes', isActive: true })
    const type = SYNC_TYPES.find((t) => t.table === 'heart_rate_days')!
    const rows = [
      { date: '2026-01-01', hrMin: 50, hrAvg: 60, hrMax: 70, sampleCount: 1, samples: '[1]' },
      { date: '2026-01-02', hrMin: 51, hrAvg: 61, hrMax: 71, sampleCount: 1, samples: '[2]' },
      { date: '2026-01-01', hrMin: 52, hrAvg: 62, hrMax: 72, sampleCount: 2, samples: '[3]' },
    ]
    assert.equal(await upsertRows(db.connection(), type.table, user.id, type.naturalKey, rows, DateTime.now()), 2)
    const stored = await db.from(type.table).where('user_id', user.id).orderBy('date').select('date', 'hr_min', 'samples')
    assert.deepEqual(stored, [
      { date: '2026-01-01', hr_min: 52, samples: '[3]' },
      { date: '2026-01-02', hr_min: 51, samples: '[2]' },
    ])
  })

  test('more rows than one statement holds are all stored, or none when one fails', async ({ assert }) => {
    const user = await User.create({ externalId: 'many', isActive: true })
    const type = SYNC_TYPES.find((t) => t.table === 'heart_rate_days')!
    const size = Math.max(PG_UPSERT_BATCH_SIZE, UPSERT_BATCH_SIZE) + 5
    const day = DateTime.fromISO('2000-01-01')
    const rows = Array.from({ length: size }, (_, i) => ({
      date: day.plus({ days: i }).toISODate(),
      hrMin: 50,
      hrAvg: 60,
      hrMax: 70,
      sampleCount: i,
      samples: null,
    }))
    const count = async () => Number((await db.from(type.table).where('user_id', user.id).count('* as n'))[0].n)

    // The last statement fails (NOT NULL sample_count): the statements before it are rolled back.
    const broken = [...rows.slice(0, -1), { ...rows.at(-1)!, sampleCount: null }]
    await assert.rejects(() => upsertRows(db.connection(), type.table, user.id, type.naturalKey, broken, DateTime.now()))
    assert.equal(await count(), 0)

    assert.equal(await upsertRows(db.connection(), type.table, user.id, type.naturalKey, rows, DateTime.now()), size)
    assert.equal(await count(), size)
  })
})
