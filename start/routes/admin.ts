/*
|--------------------------------------------------------------------------
| Admin UI (Inertia + Vue)
|--------------------------------------------------------------------------
|
| `/admin/...` pages and the dashboard pages beside the dashboard JSON API
| (DASHBOARD_PREFIX). Every page needs a logged-in admin except setup and
| login. The one-time setup token is announced by start/startup_notices.ts.
|
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { dashboardPrefix } from '#config/surfaces'

const Setup = () => import('#controllers/admin/setup_controller')
const Session = () => import('#controllers/admin/session_controller')
const Overview = () => import('#controllers/admin/overview_controller')
const Users = () => import('#controllers/admin/users_controller')
const Exports = () => import('#controllers/admin/exports_controller')
const UserApiKeys = () => import('#controllers/admin/user_api_keys_controller')
const ApiKeys = () => import('#controllers/admin/api_keys_controller')
const ConnectedApps = () => import('#controllers/admin/connected_apps_controller')
const Polar = () => import('#controllers/admin/polar_controller')
const Coolify = () => import('#controllers/admin/coolify_pages_controller')

/** The site root leads to the admin UI (which leads to login or first-run setup). */
router.get('/', ({ response }) => response.redirect('/admin')).as('root')

router
  .group(() => {
    router.get('/setup', [Setup, 'show']).as('setup').use(middleware.adminSetup())
    router.post('/setup', [Setup, 'store']).as('setup.store').use(middleware.adminSetup())
    router.get('/login', [Session, 'create']).as('login')
    router.post('/login', [Session, 'store']).as('login.store')
  })
  .prefix('/admin')
  .as('admin')
  .use(middleware.guest())

router
  .group(() => {
    // Flash messages (the welcome after setup, a login notice) survive this hop to the overview.
    router
      .get('/', ({ response, session }) => {
        session.reflash()
        return response.redirect('/admin/overview')
      })
      .as('home')
    router.post('/logout', [Session, 'destroy']).as('logout')
    router.get('/overview', [Overview, 'show']).as('overview')
    router.get('/users', [Users, 'index']).as('users')
    router.post('/users', [Users, 'store']).as('users.store')
    router.get('/users/:user', [Users, 'show']).as('users.show')
    router.patch('/users/:user', [Users, 'update']).as('users.update')
    router.delete('/users/:user', [Users, 'destroy']).as('users.destroy')
    router.delete('/users/:user/api-keys/:prefix', [UserApiKeys, 'destroy']).as('users.api_keys.destroy')
    router.post('/users/:user/sync', [Users, 'sync']).as('users.sync')
    router.get('/users/:user/sync-status', [Users, 'syncStatus']).as('users.sync_status')
    router.get('/users/:user/export/:file', [Exports, 'show']).as('users.export')
    router.get('/users/:user/takeout', [Exports, 'takeout']).as('users.takeout')
    router.get('/api-keys', [ApiKeys, 'index']).as('api_keys')
    router.post('/api-keys', [ApiKeys, 'store']).as('api_keys.store')
    router.delete('/api-keys/:prefix', [ApiKeys, 'destroy']).as('api_keys.destroy')
    router.get('/connected-apps', [ConnectedApps, 'index']).as('connected_apps')
    router.delete('/connected-apps/:id', [ConnectedApps, 'destroy']).as('connected_apps.destroy')
    router.get('/polar', [Polar, 'show']).as('polar')
    router.post('/polar/credentials', [Polar, 'updateCredentials']).as('polar.credentials')
    router.get('/polar/connect', [Polar, 'connect']).as('polar.connect')
    router.get('/polar/callback', [Polar, 'callback']).as('polar.callback')
    router.post('/polar/webhook', [Polar, 'registerWebhook']).as('polar.webhook.register')
    router.delete('/polar/webhook', [Polar, 'deleteWebhook']).as('polar.webhook.delete')
  })
  .prefix('/admin')
  .as('admin')
  .use(middleware.auth())

router
  .group(() => {
    router.get('/', [Coolify, 'index']).as('index')
    router.get('/apps/:uuid/ops', [Coolify, 'ops']).as('ops')
  })
  .prefix(dashboardPrefix)
  .as('coolify.pages')
  .use(middleware.auth())
