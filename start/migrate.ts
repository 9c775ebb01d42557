/*
|--------------------------------------------------------------------------
| Migrate on start
|--------------------------------------------------------------------------
|
| `npm start` brings the schema up to date before serving, so a fresh
| install needs no separate step. On PostgreSQL the migrator runs on its
| own single-connection pool: its advisory lock must be taken and released
| on the same session. Several processes starting together take turns:
| the one that loses the lock waits and finds nothing left to apply.
|
*/
import { setTimeout as sleep } from 'node:timers/promises'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { MigrationRunner } from '@adonisjs/lucid/migration'

const LOCK_ATTEMPTS = 60
const primary = db.manager.get(db.primaryConnectionName)!.config
const connectionName = primary.client === 'pg' ? 'migrator' : db.primaryConnectionName

if (connectionName === 'migrator') {
  db.manager.add(connectionName, { ...primary, pool: { min: 0, max: 1 } })
}

try {
  for (let attempt = 1; ; attempt++) {
    const migrator = new MigrationRunner(db, app, { direction: 'up', dryRun: false, connectionName })
    // Losing the lock also throws on the way out (it tries to release a lock it never held).
    const thrown = await migrator.run().then(
      () => null,
      (error: unknown) => error
    )
    const error = (migrator.error ?? thrown) as { code?: string } | null
    if (error?.code === 'E_UNABLE_ACQUIRE_LOCK' && attempt < LOCK_ATTEMPTS) {
      await sleep(1000)
      continue
    }
    if (error) throw error
    const applied = Object.keys(migrator.migratedFiles).length
    if (applied > 0) logger.info({ applied }, 'database migrations applied')
    break
  }
} finally {
  if (connectionName === 'migrator') {
    await db.manager.close(connectionName)
    db.manager.release(connectionName)
  }
}
