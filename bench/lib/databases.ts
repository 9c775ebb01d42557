/*
|--------------------------------------------------------------------------
| Throwaway databases of the benchmarks
|--------------------------------------------------------------------------
|
| Each scenario gets its own SQLite file or PostgreSQL database (created on
| the local server, dropped afterwards) and its own Redis key prefix, so a
| benchmark never touches storage/ or another run.
|
*/
import { randomBytes } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import { Redis } from 'ioredis'
import pg from 'pg'
import { APP_ROOT } from './processes.js'

export const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'

export interface BenchDatabase {
  kind: 'sqlite' | 'pg'
  /** Environment for the app processes that use this database. */
  env: Record<string, string>
  /** A direct client for the benchmark's own counting queries (PostgreSQL). */
  query<T = any>(sql: string, params?: unknown[]): Promise<T[]>
  drop(): Promise<void>
}

const RUN = `${process.pid}_${randomBytes(2).toString('hex')}`
let counter = 0
const live = new Set<BenchDatabase>()

/** Drops every database of the run that is still there (interrupted runs). */
export async function dropAll() {
  for (const database of [...live]) await database.drop().catch(() => {})
}

/** Deletes the Redis keys under a prefix. */
async function deleteRedisKeys(prefix: string) {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
      if (keys.length > 0) await redis.del(...keys)
      cursor = next
    } while (cursor !== '0')
  } finally {
    redis.disconnect()
  }
}

/** Directory of this benchmark run under tmp/. */
export const RUN_DIR = new URL(`tmp/bench-${RUN}/`, APP_ROOT)

/** Environment every app process of the run gets (logs, config and storage in the run directory). */
export function baseEnv(): Record<string, string> {
  mkdirSync(RUN_DIR, { recursive: true })
  return {
    NODE_ENV: 'production',
    APP_KEY: process.env.BENCH_APP_KEY ?? 'bench-app-key-0123456789abcdefghijklmnop',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOG_DIR: new URL('logs/', RUN_DIR).pathname,
    CONFIG_DIR: new URL('config/', RUN_DIR).pathname,
    STORAGE_DIR: new URL('storage/', RUN_DIR).pathname,
    SYNC_ENABLED: 'false',
    HRVAULT_ROLE: 'web',
    RATE_LIMIT_REQUESTS: '100000000',
  }
}

export async function createDatabase(kind: 'sqlite' | 'pg', options: { redis?: boolean } = {}): Promise<BenchDatabase> {
  const name = `hrvault_bench_${RUN}_${++counter}`
  const redisEnv: Record<string, string> = options.redis ? { REDIS_URL, REDIS_PREFIX: `${name}:` } : {}
  if (kind === 'sqlite') {
    const path = new URL(`${name}.sqlite`, RUN_DIR).pathname
    mkdirSync(RUN_DIR, { recursive: true })
    const database: BenchDatabase = {
      kind,
      env: { DB_CONNECTION: 'sqlite', SQLITE_PATH: path, ...redisEnv },
      async query() {
        throw new Error('counting queries run on PostgreSQL only')
      },
      async drop() {
        live.delete(database)
        for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true })
        if (options.redis) await deleteRedisKeys(`${name}:`)
      },
    }
    live.add(database)
    return database
  }
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(PG_ADMIN_URL)
  url.pathname = `/${name}`
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 })
  const database: BenchDatabase = {
    kind,
    env: { DB_CONNECTION: 'pg', DATABASE_URL: url.toString(), ...redisEnv },
    async query(sql, params = []) {
      let index = 0
      const text = sql.replace(/\?/g, () => `$${++index}`)
      return (await pool.query(text, params)).rows
    },
    async drop() {
      live.delete(database)
      await pool.end()
      const dropper = new pg.Client({ connectionString: PG_ADMIN_URL })
      await dropper.connect()
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await dropper.end()
      if (options.redis) await deleteRedisKeys(`${name}:`)
    },
  }
  live.add(database)
  return database
}

/** Every table a sync writes to. */
export const DATA_TABLES = [
  'sleep_records',
  'nightly_recharges',
  'daily_activities',
  'exercises',
  'cardio_loads',
  'heart_rate_days',
  'sleepwise_alertness',
  'sleepwise_bedtimes',
  'spo2_tests',
  'ecg_tests',
  'body_temperatures',
  'skin_temperatures',
]

/** Rows in every data table together. */
export async function countDataRows(db: BenchDatabase): Promise<number> {
  const sql = DATA_TABLES.map((t) => `select count(*) as n from ${t}`).join(' union all ')
  const rows = await db.query<{ n: number | string }>(sql)
  return rows.reduce((sum, r) => sum + Number(r.n), 0)
}

export function cleanupRunDir() {
  rmSync(RUN_DIR, { recursive: true, force: true })
}
