/*
|--------------------------------------------------------------------------
| Analytics API v1: sync trigger and sync runs (Surface A)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const SyncTriggersController = () => import('#controllers/api/v1/sync_triggers_controller')
const SyncRunsController = () => import('#controllers/api/v1/sync_runs_controller')

router
  .group(() => {
    router.post('/users/:user_id/sync/trigger', [SyncTriggersController, 'handle']).as('sync.trigger')
    router.get('/users/:user_id/sync/runs', [SyncRunsController, 'index']).as('sync_runs.index')
    router.get('/users/:user_id/sync/runs/:run_id', [SyncRunsController, 'show']).as('sync_runs.show')
  })
  .prefix('/api/v1')
  .as('api.v1')
  .use([middleware.apiKey(), middleware.apiRateLimit()])
