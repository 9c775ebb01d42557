/*
|--------------------------------------------------------------------------
| In-process background sync (HRVAULT_ROLE=all)
|--------------------------------------------------------------------------
|
| The self-hosted profile runs the queue worker and the sync scheduler
| inside `npm start`. With HRVAULT_ROLE=web the process serves HTTP only
| and `node ace queue:work` / `node ace sync:scheduler` run elsewhere.
| SYNC_ENABLED=false turns the scheduler off (the worker still runs
| back-fills of newly connected users).
|
*/
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { BackgroundRunner } from '#services/sync/background_runner'

if ((env.get('HRVAULT_ROLE') ?? 'all') === 'all') {
  const runner = new BackgroundRunner()
  app.ready(() => runner.start({ scheduler: env.get('SYNC_ENABLED') ?? true }))
  app.terminating(() => runner.stop())
}
