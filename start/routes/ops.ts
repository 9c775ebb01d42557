/*
|--------------------------------------------------------------------------
| Routes: operations API (Surface B)
|--------------------------------------------------------------------------
|
| Under OPS_PREFIX (default /ops). Every route names the scope its bearer
| token must hold (spec, Surface B authentication table).
|
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { opsPrefix } from '#config/surfaces'

const HealthController = () => import('#controllers/ops/health_controller')
const StatsController = () => import('#controllers/ops/stats_controller')
const LogsController = () => import('#controllers/ops/logs_controller')
const QueueController = () => import('#controllers/ops/queue_controller')
const FailedJobsController = () => import('#controllers/ops/failed_jobs_controller')
const RetryFailedJobController = () => import('#controllers/ops/retry_failed_job_controller')
const RetryAllFailedJobsController = () => import('#controllers/ops/retry_all_failed_jobs_controller')
const ConsoleController = () => import('#controllers/ops/console_controller')
const RunConsoleCommandController = () => import('#controllers/ops/run_console_command_controller')

router
  .group(() => {
    router.get('/health', [HealthController, 'show']).use(middleware.opsToken({ scope: 'health:read' })).as('health')
    router.get('/stats', [StatsController, 'show']).use(middleware.opsToken({ scope: 'stats:read' })).as('stats')
    router.get('/logs', [LogsController, 'index']).use(middleware.opsToken({ scope: 'logs:read' })).as('logs.index')
    router.get('/logs/:file', [LogsController, 'show']).use(middleware.opsToken({ scope: 'logs:read' })).as('logs.show')
    router.get('/queue', [QueueController, 'show']).use(middleware.opsToken({ scope: 'queue:read' })).as('queue.show')
    router
      .get('/queue/failed', [FailedJobsController, 'index'])
      .use(middleware.opsToken({ scope: 'queue:read' }))
      .as('queue.failed')
    router
      .post('/queue/retry/:id', [RetryFailedJobController])
      .use(middleware.opsToken({ scope: 'queue:retry' }))
      .as('queue.retry')
    router
      .post('/queue/retry-all', [RetryAllFailedJobsController])
      .use(middleware.opsToken({ scope: 'queue:retry' }))
      .as('queue.retry_all')
    router.get('/console', [ConsoleController, 'index']).use(middleware.opsToken({ scope: 'console:list' })).as('console.index')
    router
      .post('/console', [RunConsoleCommandController])
      .use(middleware.opsToken({ scope: 'console:execute' }))
      .as('console.run')
  })
  .prefix(opsPrefix)
  .as('ops')
