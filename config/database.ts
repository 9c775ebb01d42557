import env from '#start/env'
import { mkdirSync } from 'node:fs'
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
