import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import { Worker } from '@adonisjs/queue'
import type { QueueConfig } from '@adonisjs/queue/types'
import type { AdapterFactory } from '@boringnode/queue/types'
import { FailedJobRecorder } from '#services/ops/failed_job_recorder'
import { SyncSchedulerService } from '#services/sync/sync_scheduler_service'

/** How often the in-process scheduler checks whether a new interval slot began. */
const SCHEDULER_TICK_MS = 30_000

/** Resolves the adapters of config/queue.ts the way `node ace queue:work` does. */
async function resolveAdapters(config: QueueConfig): Promise<Record<string, AdapterFactory>> {
  const resolved: Record<string, AdapterFactory> = {}
  for (const [name, adapter] of Object.entries(config.adapters)) {
    resolved[name] = typeof adapter === 'function' ? adapter : await adapter.resolver(app)
  }
  return resolved
}

/** Creates a queue worker over config/queue.ts, with jobs built by the container. */
export async function createQueueWorker(concurrency?: number): Promise<Worker> {
  const config = app.config.get<QueueConfig>('queue')
  FailedJobRecorder.subscribe()
  return new Worker({
    ...config,
    autoLoadJobs: false,
    adapters: await resolveAdapters(config),
    jobFactory: config.jobFactory ?? ((JobClass) => app.container.make(JobClass)),
    logger: config.logger ?? logger,
    worker: { ...config.worker, ...(concurrency !== undefined ? { concurrency } : {}) },
  } as ConstructorParameters<typeof Worker>[0])
}

/**
 * The scheduler loop: one tick now, then every 30 s (each tick is a no-op unless a new
 * SYNC_INTERVAL_MINUTES slot began and no other process scheduled it yet).
 */
export class SchedulerLoop {
  #timer: NodeJS.Timeout | null = null
  #running: Promise<unknown> | null = null

  start() {
    const tick = () => {
      if (this.#running) return
      this.#running = app.container
        .make(SyncSchedulerService)
        .then((scheduler) => scheduler.tick())
        .catch((error) => logger.error({ err: error }, 'sync scheduler tick failed'))
        .finally(() => {
          this.#running = null
        })
    }
    tick()
    this.#timer = setInterval(tick, SCHEDULER_TICK_MS)
    this.#timer.unref()
  }

  async stop() {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = null
    await this.#running
  }
}

/**
 * The default profile's background work inside the web process (HRVAULT_ROLE=all): a queue worker
 * on the `default` queue plus the scheduler loop (when SYNC_ENABLED). Stopped on app termination.
 */
export class BackgroundRunner {
  #worker: Worker | null = null
  #loop: SchedulerLoop | null = null
  #workerDone: Promise<void> | null = null

  async start(options: { scheduler: boolean }) {
    this.#worker = await createQueueWorker()
    this.#workerDone = this.#worker.start(['default']).catch((error) => {
      logger.error({ err: error }, 'queue worker stopped with an error')
    })
    if (options.scheduler) {
      this.#loop = new SchedulerLoop()
      this.#loop.start()
    }
    logger.info({ scheduler: options.scheduler }, 'background sync worker started in process')
  }

  async stop() {
    await this.#loop?.stop()
    await this.#worker?.stop()
    await this.#workerDone
    this.#worker = null
    this.#loop = null
  }
}
