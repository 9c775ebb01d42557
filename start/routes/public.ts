/*
|--------------------------------------------------------------------------
| Public routes: server health and API documentation
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'

const HealthController = () => import('#controllers/health_controller')
const DocsController = () => import('#controllers/docs_controller')

router.get('/health', [HealthController, 'show']).as('health')

router
  .group(() => {
    router.get('/openapi.json', [DocsController, 'openapi']).as('openapi')
    router.get('/swagger', [DocsController, 'swagger']).as('swagger')
    router.get('/redoc', [DocsController, 'redoc']).as('redoc')
    router.get('/assets/:package/:file', [DocsController, 'asset']).as('asset')
  })
  .prefix('/schema')
  .as('schema')
