/*
|--------------------------------------------------------------------------
| HTTP kernel
|--------------------------------------------------------------------------
|
| Server middleware runs on every request (also unmatched ones); router
| middleware runs on matched routes; named middleware is applied per route
| group (auth, rate limits). Bodies of the analytics and operations APIs are
| read by their auth middleware, after the credentials were checked.
|
*/
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

server.errorHandler(() => import('#exceptions/handler'))

server.use([
  () => import('#middleware/security_headers_middleware'),
  () => import('#middleware/container_bindings_middleware'),
  () => import('#middleware/dashboard_api_headers_middleware'),
  () => import('#middleware/static_files_middleware'),
  () => import('@adonisjs/cors/cors_middleware'),
  () => import('@adonisjs/vite/vite_middleware'),
  () => import('#middleware/inertia_middleware'),
])

router.use([
  () => import('#middleware/body_parser_middleware'),
  () => import('#middleware/browser_session_middleware'),
  () => import('#middleware/shield_middleware'),
  () => import('#middleware/initialize_auth_middleware'),
])

export const middleware = router.named({
  apiKey: () => import('#middleware/api_key_middleware'),
  apiRateLimit: () => import('#middleware/api_rate_limit_middleware'),
  readCache: () => import('#middleware/read_cache_middleware'),
  adminApi: () => import('#middleware/admin_api_middleware'),
  opsToken: () => import('#middleware/ops_token_middleware'),
  auth: () => import('#middleware/auth_middleware'),
  guest: () => import('#middleware/guest_middleware'),
  adminSetup: () => import('#middleware/admin_setup_middleware'),
  webhookBody: () => import('#middleware/webhook_body_middleware'),
  mcpAuth: () => import('#middleware/mcp_auth_middleware'),
})
