/*
|--------------------------------------------------------------------------
| Analytics API v1: sync trigger (Surface A)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const SyncTriggersController = () => import('#controllers/api/v1/sync_triggers_controller')

router
  .group(() => {
    router.post('/users/:user_id/sync/trigger', [SyncTriggersController, 'handle']).as('sync.trigger')
  })
  .prefix('/api/v1')
  .as('api.v1')
  .use([middleware.apiKey(), middleware.apiRateLimit()])
