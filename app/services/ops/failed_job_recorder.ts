import { tracingChannels } from '@adonisjs/queue'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import FailedJob from '#models/failed_job'
import { ClockService } from '#services/clock_service'

/** What the queue reports about one job execution (its `boringqueue.job.execute` message). */
interface JobExecuteMessage {
  job: { id: string; name: string; payload?: unknown }
  queue: string
  status?: 'completed' | 'failed' | 'retrying'
  error?: Error
}

/** Longest exception text kept per failed job. */
const EXCEPTION_LIMIT = 4000

let subscribed = false
/** Records being written; shutdown waits for them before the database pool closes. */
const pending = new Set<Promise<unknown>>()

/** The queue adapter (connection) name that serves `queue` per config/queue.ts. */
export function connectionOfQueue(queue: string): string {
  const config = app.config.get<{ default: string; queues?: Record<string, { adapter?: string }> }>('queue')
  return config.queues?.[queue]?.adapter ?? config.default
}

/** `Name: message` plus the stack, cut to EXCEPTION_LIMIT characters. */
export function describeError(error: unknown): string {
  const text =
    error instanceof Error
      ? (error.stack ?? `${error.name}: ${error.message}`)
      : typeof error === 'string'
        ? error
        : 'Unknown error'
  return text.length > EXCEPTION_LIMIT ? `${text.slice(0, EXCEPTION_LIMIT)}…` : text
}

/**
 * Keeps a `failed_jobs` row (integer id, connection, queue, job name and payload, exception) for
 * every queue job that fails permanently, whatever the backend: the queue library reports each
 * execution outcome on its `boringqueue.job.execute` tracing channel, and the queue backends do
 * not keep failed jobs with integer ids. Subscribing twice is a no-op.
 */
export class FailedJobRecorder {
  static subscribe() {
    if (subscribed) return
    subscribed = true
    tracingChannels.executeChannel.subscribe({
      start() {},
      end() {},
      asyncStart() {},
      error() {},
      asyncEnd(message) {
        const execution = message as JobExecuteMessage
        if (execution.status !== 'failed') return
        const recording = FailedJobRecorder.record(execution)
          .catch((error) => {
            logger.error({ err: error, jobId: execution.job.id }, 'could not record a failed queue job')
          })
          .finally(() => pending.delete(recording))
        pending.add(recording)
      },
    })
  }

  /** Resolves once every failure reported so far is written (or could not be). */
  static async settled(): Promise<void> {
    await Promise.all([...pending])
  }

  /** Stores one failed execution. */
  static async record(execution: JobExecuteMessage) {
    const clock = await app.container.make(ClockService)
    return FailedJob.create({
      connection: connectionOfQueue(execution.queue),
      queue: execution.queue,
      jobName: execution.job.name,
      jobId: execution.job.id,
      payload: JSON.stringify(execution.job.payload ?? null),
      exception: describeError(execution.error),
      failedAt: clock.now(),
    })
  }
}
