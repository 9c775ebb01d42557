/*
|--------------------------------------------------------------------------
| Booting the application inside a benchmark task
|--------------------------------------------------------------------------
|
| Tasks (seeding, job dispatch) boot HRVault as a console app with the
| environment their parent passed on, and bring the schema up to date.
|
*/
import 'reflect-metadata'
import { Ignitor } from '@adonisjs/core'
import type { ApplicationService } from '@adonisjs/core/types'

const APP_ROOT = new URL('../../', import.meta.url)

export async function bootConsoleApp(): Promise<ApplicationService> {
  const app = new Ignitor(APP_ROOT, {
    importer: (path) => import(path.startsWith('.') ? new URL(path, APP_ROOT).href : path),
  }).createApp('console')
  await app.init()
  await import('#start/env')
  await app.boot()
  await app.start(() => {})
  const { default: db } = await import('@adonisjs/lucid/services/db')
  const { MigrationRunner } = await import('@adonisjs/lucid/migration')
  const migrator = new MigrationRunner(db, app, { direction: 'up', dryRun: false })
  await migrator.run()
  if (migrator.error) throw migrator.error
  return app as ApplicationService
}

/** Prints the task's result as the last line of stdout (read by the parent). */
export function emit(result: unknown) {
  process.stdout.write(`\n${JSON.stringify(result)}\n`)
}
