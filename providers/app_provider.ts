import { HttpContext } from '@adonisjs/core/http'
import { BaseSerializer } from '@adonisjs/core/transformers'
import type { ApplicationService } from '@adonisjs/core/types'
import { ClockService } from '#services/clock_service'
import { HealthProbeService } from '#services/health_probe_service'
import { ResponseCache } from '#services/response_cache'

/**
 * Serializer for every JSON surface. No `data` wrapper: the spec wants bare
 * arrays and objects.
 */
class ApiSerializer extends BaseSerializer<{ PaginationMetaData: Record<string, unknown> }> {
  wrap = undefined

  definePaginationMetaData(metaData: unknown) {
    return (metaData ?? {}) as Record<string, unknown>
  }
}

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    serialize: ApiSerializer['serialize']
  }
}

export default class AppProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    const serializer = new ApiSerializer()
    // A getter (not a macro) so `{ serialize }` can be destructured in actions.
    HttpContext.getter('serialize', function (this: HttpContext) {
      return (values: any): any => serializer.serialize(values, this.containerResolver)
    })
    // One clock and one health probe per process: they hold no request state, and every data read
    // asks the clock for today (the read cache keys on it), as every /health poll asks the probe,
    // so neither is built anew per request. Tests still swap them.
    this.app.container.singleton(ClockService, () => new ClockService())
    this.app.container.singleton(HealthProbeService, () => new HealthProbeService())
    // One read cache per process (its bound is per process).
    this.app.container.singleton(ResponseCache, async () => {
      const { default: env } = await import('#start/env')
      return new ResponseCache(env.get('RESPONSE_CACHE_MB', 32) * 1024 * 1024)
    })
  }

  /** Every process (web, worker, console) records jobs that fail for good into `failed_jobs`. */
  async boot() {
    const { FailedJobRecorder } = await import('#services/ops/failed_job_recorder')
    FailedJobRecorder.subscribe()
    if (this.drainsWorkers()) {
      const { trackQueueWorkers } = await import('#services/sync/worker_drain')
      trackQueueWorkers()
    }
  }

  /** A web process reads the code digest (stored renders' format) before a request waits for it. */
  async ready() {
    if (this.app.getEnvironment() !== 'web') return
    const { codeDigest } = await import('#services/code_digest')
    codeDigest()
  }

  /**
   * Runs before the other providers shut down (this one is listed last), so the database and Redis
   * connections are still open while a queue worker of this process (`node ace queue:work`, or the
   * in-process worker) stops taking jobs and lets its running jobs finish, and while their failures
   * are written to `failed_jobs`. A job still running after WORKER_DRAIN_TIMEOUT_MS is left to
   * stalled-job recovery: the process exits with code 1 without closing the pool under it, as a
   * killed worker would, instead of failing it with "Unable to acquire a connection".
   */
  async shutdown() {
    if (!this.drainsWorkers()) return
    const [{ drainQueueWorkers, WORKER_DRAIN_TIMEOUT_MS }, { FailedJobRecorder }, { default: logger }] = await Promise.all([
      import('#services/sync/worker_drain'),
      import('#services/ops/failed_job_recorder'),
      import('@adonisjs/core/services/logger'),
    ])
    const drained = await drainQueueWorkers()
    await FailedJobRecorder.settled()
    if (!drained) {
      logger.warn(`queue jobs still running ${WORKER_DRAIN_TIMEOUT_MS / 1000} s after the stop signal are left for stalled-job recovery`)
      process.exit(1)
    }
  }

  /** Queue workers run in `node ace queue:work` (console) and in the web process (HRVAULT_ROLE=all). */
  protected drainsWorkers() {
    return ['console', 'web'].includes(this.app.getEnvironment())
  }
}
