import { randomUUID } from 'node:crypto'
import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import queue from '@adonisjs/queue/services/main'
import FailedJob from '#models/failed_job'
import OpsFailedJobNotFoundException from '#exceptions/ops_failed_job_not_found_exception'
import { currentSecretScrubber } from '#services/ops/known_secrets'
import { PolarBudgetService } from '#services/sync/polar_budget_service'
import { polarBudgetView, type PolarBudgetView } from '#transformers/ops/polar_budget_view'
import type { SecretScrubber } from '#services/ops/secret_scrubber'
import { ClockService } from '#services/clock_service'
import { connectionOfQueue } from '#services/ops/failed_job_recorder'
import { OpsAuditService } from '#services/ops/audit_service'

/**
 * The Redis queue backend's key names (`jobs::<queue>::pending|active|delayed` and the job data), in
 * batches, without the connection's keyPrefix: SCAN MATCH sees whole key names while commands add the
 * prefix themselves, so these names can be given to any command of the connection.
 */
export async function* redisJobKeys(connection: {
  ioConnection: { options: { keyPrefix?: string } }
  scan(cursor: string, match: 'MATCH', pattern: string, count: 'COUNT', n: number): Promise<[string, string[]]>
}): AsyncGenerator<string[]> {
  const prefix = String(connection.ioConnection.options.keyPrefix ?? '')
  let cursor = '0'
  do {
    const [next, keys] = await connection.scan(cursor, 'MATCH', `${prefix}jobs::*`, 'COUNT', 500)
    cursor = next
    if (keys.length > 0) yield keys.map((key) => key.slice(prefix.length))
  } while (cursor !== '0')
}

/** Counts of one queue: ready to run, running, waiting for a later time. */
export interface QueueCounts {
  pending: number
  processing: number
  delayed: number
}

export interface QueueStatus {
  /** Name of the default queue adapter (`database` or `redis`). */
  connection: string
  queues: Record<string, QueueCounts>
  failed_count: number
  /** The installation's Polar request budget: use and limit of each rate-limit window. */
  polar_budget: PolarBudgetView
}

export interface FailedJobView {
  id: number
  connection: string
  queue: string
  job_name: string
  failed_at: string
  exception: string
}

/** One failed job put back on its queue. */
export interface RetriedJob {
  id: number
  queue: string
  connection: string
  job_name: string
  /** Queue id of the new dispatch. */
  job_id: string
}

interface QueueConfig {
  default: string
  queues?: Record<string, unknown>
}

/** Table of the database adapter (QueueSchemaService default). */
const JOBS_TABLE = 'queue_jobs'
/** Rows claimed per batch by retry-all. */
const RETRY_BATCH = 100

const emptyCounts = (): QueueCounts => ({ pending: 0, processing: 0, delayed: 0 })

/**
 * The operations view of the job queue (DESIGN §5): per-queue counts read from the real backend
 * (the `queue_jobs` table of the database adapter, or the Redis keys of the Redis adapter), the
 * failed jobs kept in `failed_jobs`, and retries that dispatch the failed job again on its queue.
 */
@inject()
export class OpsQueueService {
  constructor(
    protected clock: ClockService,
    protected audit: OpsAuditService,
    protected polarBudget: PolarBudgetService
  ) {}

  protected config(): QueueConfig {
    return app.config.get<QueueConfig>('queue')
  }

  /** Queue counts of the default backend plus the number of failed jobs. */
  async status(): Promise<QueueStatus> {
    const config = this.config()
    const names = new Set<string>(['default', ...Object.keys(config.queues ?? {})])
    const counts =
      config.default === 'redis' ? await this.redisCounts(names) : config.default === 'database' ? await this.databaseCounts(names) : {}
    const queues: Record<string, QueueCounts> = {}
    for (const name of [...new Set([...names, ...Object.keys(counts)])].sort()) {
      queues[name] = counts[name] ?? emptyCounts()
    }
    return {
      connection: config.default,
      queues,
      failed_count: await this.failedCount(),
      polar_budget: polarBudgetView(await this.polarBudget.budget()),
    }
  }

  protected async databaseCounts(_names: Set<string>): Promise<Record<string, QueueCounts>> {
    const rows: Array<{ queue: string; status: string; total: number | string }> = await db
      .from(JOBS_TABLE)
      .select('queue', 'status')
      .count('* as total')
      .whereIn('status', ['pending', 'active', 'delayed'])
      .groupBy('queue', 'status')
    const counts: Record<string, QueueCounts> = {}
    for (const row of rows) {
      const entry = (counts[row.queue] ??= emptyCounts())
      const total = Number(row.total)
      if (row.status === 'pending') entry.pending += total
      else if (row.status === 'active') entry.processing += total
      else entry.delayed += total
    }
    return counts
  }

  protected async redisCounts(names: Set<string>): Promise<Record<string, QueueCounts>> {
    const { default: redis } = await import('@adonisjs/redis/services/main')
    const connection = redis.connection('main')
    // Queues that currently hold jobs, found by their key names.
    for await (const keys of redisJobKeys(connection)) {
      for (const key of keys) {
        const match = /^jobs::(.+)::(pending|active|delayed)$/.exec(key)
        if (match) names.add(match[1])
      }
    }
    const counts: Record<string, QueueCounts> = {}
    for (const name of names) {
      const [pending, processing, delayed] = await Promise.all([
        connection.zcard(`jobs::${name}::pending`),
        connection.hlen(`jobs::${name}::active`),
        connection.zcard(`jobs::${name}::delayed`),
      ])
      counts[name] = { pending, processing, delayed }
    }
    return counts
  }

  async failedCount(): Promise<number> {
    const row = await FailedJob.query().count('* as total').first()
    return Number(row?.$extras.total ?? 0)
  }

  /** Failed jobs, newest first, one page at a time. */
  async listFailed(page: number, perPage: number) {
    const result = await FailedJob.query().orderBy('failed_at', 'desc').orderBy('id', 'desc').paginate(page, perPage)
    // Exception texts carry stack traces: secrets and absolute paths are scrubbed like console output.
    const scrubber = await currentSecretScrubber()
    return {
      failed_jobs: result.all().map((job) => this.view(job, scrubber)),
      total: result.total,
      page: result.currentPage,
      per_page: result.perPage,
      last_page: result.lastPage,
    }
  }

  protected view(job: FailedJob, scrubber: SecretScrubber): FailedJobView {
    return {
      id: Number(job.id),
      connection: job.connection,
      queue: job.queue,
      job_name: job.jobName,
      failed_at: job.failedAt.setZone(this.clock.zone).toISO()!,
      exception: scrubber.scrub(job.exception),
    }
  }

  /**
   * Dispatches one failed job again on behalf of `actor` (audited); throws
   * OpsFailedJobNotFoundException (404) for an id that is not in the failed jobs list.
   */
  async retry(id: number, actor: string): Promise<RetriedJob> {
    const job = await FailedJob.find(id)
    const retried = job ? await this.requeue(job) : null
    if (!retried) {
      await this.audit.record({ actor, action: 'queue.retry', target: String(id), outcome: 'not_found' })
      throw new OpsFailedJobNotFoundException(`No failed job has the id ${id}.`)
    }
    await this.audit.record({ actor, action: 'queue.retry', target: String(id), outcome: 'success', details: { ...retried } })
    return retried
  }

  /** Dispatches every failed job again, oldest first, on behalf of `actor` (audited). */
  async retryAll(actor: string): Promise<RetriedJob[]> {
    const retried: RetriedJob[] = []
    let afterId = 0
    let outcome = 'failure'
    try {
      while (true) {
        const batch = await FailedJob.query().where('id', '>', afterId).orderBy('id', 'asc').limit(RETRY_BATCH)
        if (batch.length === 0) break
        for (const job of batch) {
          const result = await this.requeue(job)
          if (result) retried.push(result)
        }
        afterId = Number(batch[batch.length - 1].id)
      }
      outcome = 'success'
    } finally {
      await this.audit.record({
        actor,
        action: 'queue.retry_all',
        target: null,
        outcome,
        details: { count: retried.length, ids: retried.map((job) => job.id) },
      })
    }
    return retried
  }

  /**
   * Claims the row (delete; only the caller whose delete removed it goes on, so concurrent
   * retries never dispatch twice), pushes a fresh copy of the job onto its queue, and puts the
   * row back when the push fails.
   */
  protected async requeue(job: FailedJob): Promise<RetriedJob | null> {
    const claimed = await FailedJob.query().where('id', job.id).delete()
    if (Number(Array.isArray(claimed) ? claimed[0] : claimed) === 0) return null
    const jobId = randomUUID()
    const connection = this.adapterFor(job)
    try {
      await queue.use(connection).pushOn(job.queue, {
        id: jobId,
        name: job.jobName,
        payload: JSON.parse(job.payload),
        attempts: 0,
        createdAt: Date.now(),
      })
    } catch (error) {
      await FailedJob.create({
        id: job.id,
        connection: job.connection,
        queue: job.queue,
        jobName: job.jobName,
        jobId: job.jobId,
        payload: job.payload,
        exception: job.exception,
        failedAt: job.failedAt,
      })
      throw error
    }
    return { id: Number(job.id), queue: job.queue, connection, job_name: job.jobName, job_id: jobId }
  }

  /** The adapter that recorded the failure when it is still configured, else the queue's current one. */
  protected adapterFor(job: FailedJob): string {
    const adapters = Object.keys(app.config.get<{ adapters: Record<string, unknown> }>('queue').adapters ?? {})
    return adapters.includes(job.connection) ? job.connection : connectionOfQueue(job.queue)
  }
}
