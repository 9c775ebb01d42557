import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { Socket } from 'node:net'
import type { ClientConfig } from 'pg'
import { HotQueries } from '#services/hot_queries'
import { PgPipeline } from '#services/pg_pipeline'
import { freePort } from '#tests/helpers/free_port'

/** The pipeline is PostgreSQL's: its own cases run in the PostgreSQL suite. */
const PG_SUITE = process.env.DB_CONNECTION === 'pg'
const PG_ONLY = 'PostgreSQL only (npm run test:pg)'

const postgres = () => db.connection().dialect.name === 'postgres'

/** A statement of one bound value that both dialects prepare (PostgreSQL needs its type). */
const echoSql = () => (postgres() ? 'select ?::integer as n' : 'select ? as n')

/**
 * The request path's prepared reads (HotQueries), with real commits (no global transaction): on
 * SQLite synchronous on the pool's connection, on PostgreSQL short reads through the connection's
 * pipeline (PgPipeline, several statements on the way at once) and scans on pooled clients.
 */
test.group('Prepared reads on the request path', () => {
  test('many reads at once each get their own answer', async ({ assert }) => {
    const answers = await Promise.all(Array.from({ length: 60 }, (_, n) => HotQueries.first<{ n: number }>(echoSql(), [n])))
    assert.deepEqual(
      answers.map((row) => Number(row!.n)),
      Array.from({ length: 60 }, (_, n) => n)
    )
    const scanned = await Promise.all(Array.from({ length: 5 }, (_, n) => HotQueries.scan<{ n: number }>(echoSql(), [n])))
    assert.deepEqual(
      scanned.map(([row]) => Number(row.n)),
      [0, 1, 2, 3, 4]
    )
  })

  test('a failing statement fails alone; the reads sent with it are answered', async ({ assert }) => {
    const results = await Promise.allSettled([
      HotQueries.first<{ n: number }>(echoSql(), [1]),
      HotQueries.first('select * from no_such_table_here', []),
      HotQueries.first<{ n: number }>(echoSql(), [3]),
    ])
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'rejected', 'fulfilled']
    )
    assert.equal(Number((results[2] as PromiseFulfilledResult<{ n: number }>).value.n), 3)
    assert.match(String((results[1] as PromiseRejectedResult).reason), /no_such_table_here/)
  })

  test('a read sent after a commit sees it', async ({ assert }) => {
    await db.rawQuery('create table if not exists hot_reads_probe (id integer primary key, v integer not null)')
    try {
      await db.rawQuery('delete from hot_reads_probe')
      await db.table('hot_reads_probe').insert({ id: 1, v: 1 })
      for (let v = 2; v <= 20; v++) {
        await db.from('hot_reads_probe').where('id', 1).update({ v })
        const seen = await HotQueries.first<{ v: number }>('select v from hot_reads_probe where id = ?', [1])
        assert.equal(Number(seen!.v), v)
      }
    } finally {
      await db.rawQuery('drop table hot_reads_probe')
    }
  })

  test('PostgreSQL: a pipeline connection ended by the server is replaced by the next read', async ({ assert }) => {
    const pidsOf = async () =>
      new Set((await Promise.all([1, 2, 3, 4].map(() => HotQueries.first<{ pid: number }>('select pg_backend_pid() as pid')))).map((row) => row!.pid))
    const before = await pidsOf()
    assert.isAtLeast(before.size, 1)
    await db.rawQuery('select pg_terminate_backend(pid) from pg_stat_activity where pid = any(?::integer[])', [[...before]])

    // A read already on its way to an ended backend fails; none hangs, and the next ones are answered.
    let after = new Set<number>()
    for (let attempt = 0; attempt < 10 && after.size === 0; attempt++) {
      after = await pidsOf().catch(() => new Set<number>())
    }
    assert.isAtLeast(after.size, 1)
    for (const pid of after) assert.isFalse(before.has(pid), 'a new backend')
  }).skip(!PG_SUITE, PG_ONLY)

  test('PostgreSQL: a pipeline that cannot connect rejects its reads and connects once the server answers', async ({ assert }) => {
    const settings = db.manager.get(db.primaryConnectionName)!.config.connection as ClientConfig
    const url = new URL(settings.connectionString!)
    const unreachable = new URL(url)
    unreachable.port = String(await freePort())
    const nowhere = new PgPipeline({ connectionString: unreachable.toString() })
    const statement = { name: 'hv_pipeline_probe', text: 'select $1::integer as n' }
    try {
      const results = await Promise.allSettled([nowhere.query(statement, [1]), nowhere.query(statement, [2])])
      assert.deepEqual(
        results.map((result) => result.status),
        ['rejected', 'rejected']
      )
    } finally {
      await nowhere.close()
    }

    const reachable = new PgPipeline({ connectionString: url.toString() })
    try {
      const rows = await Promise.all([1, 2, 3].map((n) => reachable.query<{ n: number }>(statement, [n])))
      assert.deepEqual(
        rows.map(([row]) => row.n),
        [1, 2, 3]
      )
    } finally {
      await reachable.close()
    }
    await assert.rejects(() => reachable.query(statement, [4]), /closed/)
  }).skip(!PG_SUITE, PG_ONLY)

  test('PostgreSQL: the statements sent in one turn go out in one socket write per connection', async ({ assert, cleanup }) => {
    const settings = db.manager.get(db.primaryConnectionName)!.config.connection as ClientConfig
    const pipeline = new PgPipeline({ connectionString: settings.connectionString })
    cleanup(() => pipeline.close())
    const statement = { name: 'hv_pipeline_turn', text: 'select $1::integer as n' }
    // Both connections open and the statement prepared on each.
    await Promise.all([1, 2, 3, 4].map((n) => pipeline.query(statement, [n])))

    const writes = new Map<Socket, number>()
    const count = (socket: Socket) => writes.set(socket, (writes.get(socket) ?? 0) + 1)
    const { _write: write, _writev: writev } = Socket.prototype as unknown as Record<string, (...args: unknown[]) => void>
    Object.assign(Socket.prototype, {
      _write(this: Socket, ...args: unknown[]) {
        count(this)
        return write.apply(this, args)
      },
      _writev(this: Socket, ...args: unknown[]) {
        count(this)
        return writev.apply(this, args)
      },
    })
    let rows: Array<Array<{ n: number }>>
    try {
      rows = await Promise.all(Array.from({ length: 20 }, (_, n) => pipeline.query<{ n: number }>(statement, [n])))
    } finally {
      Object.assign(Socket.prototype, { _write: write, _writev: writev })
    }
    assert.deepEqual(
      rows.map(([row]) => row.n),
      Array.from({ length: 20 }, (_, n) => n)
    )
    assert.deepEqual([...writes.values()], [1, 1], 'twenty statements, two connections, one write each')
  }).skip(!PG_SUITE, PG_ONLY)
})
