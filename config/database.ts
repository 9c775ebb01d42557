import env from '#start/env'
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import pg from 'pg'
import { defineConfig } from '@adonisjs/lucid'
import { sqlitePath } from '#config/paths'

/*
|--------------------------------------------------------------------------
| Database
|--------------------------------------------------------------------------
|
| One code path, two databases: SQLite (default, self-hosted) or PostgreSQL
| (DB_CONNECTION=pg with DATABASE_URL). Calendar dates are stored as
| ISO `YYYY-MM-DD` strings on both, so no driver shifts them by a timezone.
|
*/
mkdirSync(dirname(sqlitePath), { recursive: true })

/**
 * The SQLite file holds key hashes and encrypted provider tokens: owner-only (0600), like `.env`.
 * It is created here before the driver opens it, and SQLite gives its -wal and -shm files the
 * database file's mode. An existing file with wider permissions is narrowed.
 */
function restrictSqliteFile(path: string) {
  closeSync(openSync(path, 'a', 0o600))
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, 0o600)
    } catch {
      // Not there yet, or owned by another user: SQLite creates -wal/-shm with the file's mode.
    }
  }
}
if (env.get('DB_CONNECTION', 'sqlite') === 'sqlite') restrictSqliteFile(sqlitePath)

// BIGINT counts and epoch milliseconds fit in a JS number; return them as numbers.
pg.types.setTypeParser(20, (value) => Number(value))

const migrations = { naturalSort: true, paths: ['database/migrations'] }

const dbConfig = defineConfig({
  connection: env.get('DB_CONNECTION', 'sqlite'),
  connections: {
    sqlite: {
      client: 'better-sqlite3',
      connection: { filename: sqlitePath },
      useNullAsDefault: true,
      migrations,
      pool: {
        afterCreate: (conn: any, done: (error: Error | null, conn: any) => void) => {
          conn.pragma('journal_mode = WAL')
          // Safe with WAL (no corruption on power loss, at most the last commits lost) and
          // much cheaper per commit; every API request commits a rate-limit counter.
          conn.pragma('synchronous = NORMAL')
          conn.pragma('busy_timeout = 5000')
          conn.pragma('foreign_keys = ON')
          done(null, conn)
        },
      },
    },
    pg: {
      client: 'pg',
      connection: {
        connectionString: env.get('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/hrvault'),
      },
      migrations,
      pool: { min: 0, max: 10 },
    },
  },
})

export default dbConfig
