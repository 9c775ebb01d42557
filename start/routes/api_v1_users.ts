/*
|--------------------------------------------------------------------------
| Analytics API v1: discovery, takeout and erasure of a user (Surface A)
|--------------------------------------------------------------------------
|
| Outside the read cache: a takeout is a fresh ZIP each time (its manifest
| carries the time it was made) and an erasure is a write.
|
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const ExportsController = () => import('#controllers/api/v1/exports_controller')
const UsersController = () => import('#controllers/api/v1/users_controller')

router
  .group(() => {
    router.get('/users/:user_id/export/takeout', [ExportsController, 'takeout']).as('export.takeout')
    router.get('/users', [UsersController, 'index']).as('users.index')
    router.get('/users/:user_id', [UsersController, 'show']).as('users.show')
    router.delete('/users/:user_id', [UsersController, 'destroy']).as('users.destroy')
  })
  .prefix('/api/v1')
  .as('api.v1')
  .use([middleware.apiKey(), middleware.apiRateLimit()])
