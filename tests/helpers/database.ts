import app from '@adonisjs/core/services/app'
import { emptyRedisJobQueues } from '#tests/helpers/job_queues'

/**
 * Runs an Ace command of the test database, failing as `testUtils.db()` does. Migrations run
 * without Lucid's advisory lock: the lock is taken and released by two queries through the pool,
 * which, with more than one idle connection, can land on two connections (the release then fails
 * and the lock stays held by a pooled connection, failing every later migration of the run). One
 * test process migrates its own database, so there is nothing to lock against.
 */
async function runCommand(name: string, args: string[]) {
  const command = await (await app.container.make('ace')).exec(name, args)
  if (!command.exitCode) return
  throw command.error ?? new Error(`"${name}" failed`)
}

const MIGRATE_FLAGS = ['--compact-output', '--no-schema-generate', '--disable-locks']

/** `testUtils.db().migrate()` without the advisory lock: migrates and returns the reset. */
export async function migrateDatabase() {
  await runCommand('migration:run', MIGRATE_FLAGS)
  return () => runCommand('migration:reset', MIGRATE_FLAGS)
}

/** `testUtils.db().truncate()` without the advisory lock: migrates and returns the function that truncates. */
export async function truncateDatabase() {
  await runCommand('migration:run', MIGRATE_FLAGS)
  return () => runCommand('db:truncate', [])
}

/** Empties every table and the Redis job queues now. */
export async function emptyDatabase() {
  const truncate = await truncateDatabase()
  await truncate()
  await emptyRedisJobQueues()
}
