/*
|--------------------------------------------------------------------------
| Test runner entrypoint
|--------------------------------------------------------------------------
|
| Every run is isolated: its own throwaway SQLite file (or its own PostgreSQL
| database, created here and dropped at the end), its own log directory,
| Redis key prefix and HTTP port. Runs can therefore go in parallel and never
| touch the development database.
|
*/
process.env.NODE_ENV = 'test'

import 'reflect-metadata'
import { randomBytes } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import { freePort } from '#tests/helpers/free_port'
import { Ignitor, prettyPrintError } from '@adonisjs/core'
import { configure, processCLIArgs, run } from '@japa/runner'
import { APP_ROOT, IMPORTER } from './app_root.js'

const RUN_ID = `${process.pid}_${randomBytes(3).toString('hex')}`

/** PostgreSQL: one database per run on the local server (trust auth). */
async function preparePostgres() {
  const { default: pg } = await import('pg')
  const admin = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  const name = `hrvault_test_${RUN_ID}`
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  await client.query(`CREATE DATABASE ${name}`)
  await client.end()
  const url = new URL(admin)
  url.pathname = `/${name}`
  process.env.DATABASE_URL = url.toString()
  return async () => {
    const dropper = new pg.Client({ connectionString: admin })
    await dropper.connect()
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await dropper.end()
  }
}

const cleanups: Array<() => Promise<void> | void> = []
const tmpDir = new URL(`tmp/test-runs/${RUN_ID}/`, APP_ROOT)
mkdirSync(tmpDir, { recursive: true })
cleanups.push(() => rmSync(tmpDir, { recursive: true, force: true }))

process.env.APP_KEY ??= randomBytes(32).toString('base64url')
process.env.HOST = '127.0.0.1'
process.env.PORT = String(await freePort())
process.env.LOG_DIR = new URL('logs/', tmpDir).pathname
process.env.CONFIG_DIR = new URL('config/', tmpDir).pathname
process.env.STORAGE_DIR = new URL('storage/', tmpDir).pathname
process.env.SYNC_ENABLED ??= 'false'
// Tests trigger the same user again and again; the cooldown's own tests turn it on (env.set).
process.env.SYNC_TRIGGER_COOLDOWN_SECONDS ??= '0'

if (process.env.DB_CONNECTION === 'pg') {
  cleanups.push(await preparePostgres())
} else {
  process.env.DB_CONNECTION = 'sqlite'
  process.env.SQLITE_PATH = new URL('test.sqlite', tmpDir).pathname
}

if (process.env.TEST_REDIS) {
  process.env.REDIS_URL ??= 'redis://127.0.0.1:6379'
  process.env.REDIS_PREFIX = `hrvault_test_${RUN_ID}:`
}

new Ignitor(APP_ROOT, { importer: IMPORTER })
  .tap((app) => {
    app.booting(async () => {
      await import('#start/env')
    })
    app.listen('SIGTERM', () => app.terminate())
    app.listenIf(app.managedByPm2, 'SIGINT', () => app.terminate())
  })
  .testRunner()
  .configure(async (app) => {
    const { runnerHooks, ...config } = await import('../tests/bootstrap.js')

    processCLIArgs(process.argv.splice(2))
    configure({
      ...app.rcFile.tests,
      ...config,
      ...{
        setup: runnerHooks.setup,
        teardown: runnerHooks.teardown.concat([
          () => app.terminate(),
          async () => {
            for (const cleanup of cleanups.reverse()) await cleanup()
          },
        ]),
      },
    })
  })
  .run(() => run())
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
