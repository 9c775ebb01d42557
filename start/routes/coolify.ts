/*
|--------------------------------------------------------------------------
| Dashboard API: Coolify resources and the ops proxy (Surface C)
|--------------------------------------------------------------------------
|
| JSON under DASHBOARD_PREFIX + /api. Admin session required (JSON 401 when
| logged out), CSRF on every mutation (shield), `:uuid` restricted to
| COOLIFY_PROJECT_UUID when set (403).
|
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { dashboardApiPrefix } from '#config/surfaces'

const Applications = () => import('#controllers/coolify/applications_controller')
const ApplicationActions = () => import('#controllers/coolify/application_actions_controller')
const EnvironmentVariables = () => import('#controllers/coolify/environment_variables_controller')
const Deployments = () => import('#controllers/coolify/deployments_controller')
const Databases = () => import('#controllers/coolify/databases_controller')
const DatabaseActions = () => import('#controllers/coolify/database_actions_controller')
const Servers = () => import('#controllers/coolify/servers_controller')
const Services = () => import('#controllers/coolify/services_controller')
const Projects = () => import('#controllers/coolify/projects_controller')
const Stats = () => import('#controllers/coolify/stats_controller')
const OpsProxy = () => import('#controllers/coolify/ops_proxy_controller')

router
  .group(() => {
    router.get('/applications/:uuid', [Applications, 'show']).as('applications.show')
    router.patch('/applications/:uuid', [Applications, 'update']).as('applications.update')
    router.post('/applications/:uuid/deploy', [ApplicationActions, 'deploy']).as('applications.deploy')
    router.post('/applications/:uuid/restart', [ApplicationActions, 'restart']).as('applications.restart')
    router.post('/applications/:uuid/stop', [ApplicationActions, 'stop']).as('applications.stop')
    router.post('/applications/:uuid/start', [ApplicationActions, 'start']).as('applications.start')
    router.get('/applications/:uuid/logs', [ApplicationActions, 'logs']).as('applications.logs')
    router.get('/applications/:uuid/envs', [EnvironmentVariables, 'index']).as('envs.index')
    router.post('/applications/:uuid/envs', [EnvironmentVariables, 'store']).as('envs.store')
    router.patch('/applications/:uuid/envs/:env', [EnvironmentVariables, 'update']).as('envs.update')
    router.delete('/applications/:uuid/envs/:env', [EnvironmentVariables, 'destroy']).as('envs.destroy')
    router.get('/applications/:uuid/deployments', [Deployments, 'index']).as('deployments.index')

    router.get('/deployments/:uuid', [Deployments, 'show']).as('deployments.show')
    router.get('/deployments/:uuid/logs', [Deployments, 'logs']).as('deployments.logs')
    router.post('/deployments/:uuid/cancel', [Deployments, 'cancel']).as('deployments.cancel')

    router.get('/databases', [Databases, 'index']).as('databases.index')
    router.get('/databases/:uuid', [Databases, 'show']).as('databases.show')
    router.patch('/databases/:uuid', [Databases, 'update']).as('databases.update')
    router.post('/databases/:uuid/start', [DatabaseActions, 'start']).as('databases.start')
    router.post('/databases/:uuid/stop', [DatabaseActions, 'stop']).as('databases.stop')
    router.post('/databases/:uuid/restart', [DatabaseActions, 'restart']).as('databases.restart')
    router.post('/databases/:uuid/backup', [DatabaseActions, 'backup']).as('databases.backup')
    router.get('/databases/:uuid/backups', [DatabaseActions, 'backups']).as('databases.backups')

    router.get('/servers', [Servers, 'index']).as('servers.index')
    router.get('/servers/:uuid', [Servers, 'show']).as('servers.show')
    router.get('/servers/:uuid/resources', [Servers, 'resources']).as('servers.resources')
    router.get('/servers/:uuid/domains', [Servers, 'domains']).as('servers.domains')
    router.post('/servers/:uuid/validate', [Servers, 'validate']).as('servers.validate')

    router.get('/services', [Services, 'index']).as('services.index')
    router.get('/services/:uuid', [Services, 'show']).as('services.show')
    router.post('/services/:uuid/start', [Services, 'start']).as('services.start')
    router.post('/services/:uuid/stop', [Services, 'stop']).as('services.stop')
    router.post('/services/:uuid/restart', [Services, 'restart']).as('services.restart')

    router.get('/projects', [Projects, 'index']).as('projects.index')
    router.get('/projects/:uuid', [Projects, 'show']).as('projects.show')
    router.get('/projects/:uuid/environments', [Projects, 'environments']).as('projects.environments')

    router.get('/stats', [Stats]).as('stats')

    router
      .group(() => {
        router.get('/status', [OpsProxy, 'status']).as('status')
        router.get('/health', [OpsProxy, 'health']).as('health')
        router.get('/stats', [OpsProxy, 'stats']).as('stats')
        router.get('/logs', [OpsProxy, 'logs']).as('logs')
        router.get('/logs/:file', [OpsProxy, 'logFile']).as('logs.show')
        router.get('/queue', [OpsProxy, 'queue']).as('queue')
        router.get('/queue/failed', [OpsProxy, 'failedJobs']).as('queue.failed')
        router.post('/queue/retry/:id', [OpsProxy, 'retry']).as('queue.retry')
        router.post('/queue/retry-all', [OpsProxy, 'retryAll']).as('queue.retry_all')
        router.get('/console', [OpsProxy, 'commands']).as('console.index')
        router.post('/console', [OpsProxy, 'runCommand']).as('console.run')
      })
      .prefix('/ops/:app_uuid')
      .as('ops')
  })
  .prefix(dashboardApiPrefix)
  .as('coolify.api')
  .use(middleware.adminApi())
