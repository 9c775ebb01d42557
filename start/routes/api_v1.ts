/*
|--------------------------------------------------------------------------
| Analytics API v1: raw data and export (Surface A)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const SleepController = () => import('#controllers/api/v1/sleep_controller')

router
  .group(() => {
    router.get('/users/:user_id/sleep', [SleepController, 'index']).as('sleep.index')
  })
  .prefix('/api/v1')
  .as('api.v1')
  .use([middleware.apiKey(), middleware.apiRateLimit()])
