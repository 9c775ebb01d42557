/*
|--------------------------------------------------------------------------
| Migrate on start
|--------------------------------------------------------------------------
|
| `npm start` brings the schema up to date before serving, so a fresh
| install needs no separate step. Several web processes starting together
| are safe: the migrator takes a database lock.
|
*/
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { MigrationRunner } from '@adonisjs/lucid/migration'

const migrator = new MigrationRunner(db, app, { direction: 'up', dryRun: false })
await migrator.run()
if (migrator.error) {
  throw migrator.error
}
const applied = Object.keys(migrator.migratedFiles).length
if (applied > 0) {
  logger.info({ applied }, 'database migrations applied')
}
