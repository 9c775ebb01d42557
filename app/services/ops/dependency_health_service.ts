import { randomUUID } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import cache from '@adonisjs/cache/services/main'
import queue from '@adonisjs/queue/services/main'
import { storageDir } from '#config/paths'
import { ClockService } from '#services/clock_service'
import { PolarBudgetService } from '#services/sync/polar_budget_service'
import { polarBudgetView, type PolarBudgetView } from '#transformers/ops/polar_budget_view'

/** Longest time one check may take before it counts as unhealthy. */
const CHECK_TIMEOUT_MS = 3000

export type CheckStatus = 'healthy' | 'unhealthy'

export interface CheckResult {
  status: CheckStatus
  latency_ms: number
  /** Short, non-sensitive reason for an unhealthy check. */
  message?: string
}

export interface HealthReport {
  status: CheckStatus
  checks: { database: CheckResult; cache: CheckResult; storage: CheckResult; queue: CheckResult }
  /**
   * Polar's request budget (information, not a check: a full window delays syncs, it does not make
   * the service unhealthy). Null when it could not be read in time.
   */
  polar_budget: PolarBudgetView | null
  timestamp: string
}

class CheckTimeout extends Error {}

/**
 * Runs the operations health checks (DESIGN §5) in parallel, each bounded by CHECK_TIMEOUT_MS:
 * a real database query, a cache set/get/delete round trip, a temp file written, read and deleted
 * under the storage directory, and a size query against the queue backend. Failure details go to
 * the log; the report only names the failing step, never a DSN or a path. The public `/health`
 * probe is the smaller HealthProbeService.
 */
@inject()
export class DependencyHealthService {
  constructor(
    protected clock: ClockService,
    protected polarBudget: PolarBudgetService
  ) {}

  /** Every backend check with its latency; `healthy` only when all four pass. */
  async check(): Promise<HealthReport> {
    let budget: PolarBudgetView | null = null
    const [database, cacheCheck, storage, queueCheck] = await Promise.all([
      this.run('database', () => this.database()),
      this.run('cache', () => this.cache()),
      this.run('storage', () => this.storage()),
      this.run('queue', () => this.queueBackend()),
      this.run('polar budget', async () => {
        budget = polarBudgetView(await this.polarBudget.budget())
      }),
    ])
    const checks = { database, cache: cacheCheck, storage, queue: queueCheck }
    const healthy = Object.values(checks).every((check) => check.status === 'healthy')
    return { status: healthy ? 'healthy' : 'unhealthy', checks, polar_budget: budget, timestamp: this.clock.now().toISO()! }
  }

  protected async run(name: string, probe: () => Promise<void>): Promise<CheckResult> {
    const started = process.hrtime.bigint()
    const latency = () => Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100
    let timer: NodeJS.Timeout | undefined
    try {
      await Promise.race([
        probe(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new CheckTimeout()), CHECK_TIMEOUT_MS)
        }),
      ])
      return { status: 'healthy', latency_ms: latency() }
    } catch (error) {
      const timedOut = error instanceof CheckTimeout
      if (!timedOut) logger.warn({ err: error, check: name }, 'ops health check failed')
      return {
        status: 'unhealthy',
        latency_ms: latency(),
        message: timedOut ? `${name} check timed out after ${CHECK_TIMEOUT_MS} ms` : `${name} check failed`,
      }
    } finally {
      clearTimeout(timer)
    }
  }

  protected async database() {
    await db.rawQuery('select 1 as ok')
  }

  protected async cache() {
    const key = `ops:health:${randomUUID()}`
    const value = randomUUID()
    await cache.set({ key, value, ttl: '10s', suppressL2Errors: false })
    const read = await cache.get({ key, suppressL2Errors: false })
    await cache.delete({ key, suppressL2Errors: false })
    if (read !== value) throw new Error('cache returned a different value')
  }

  protected async storage() {
    const dir = join(storageDir, 'tmp')
    await mkdir(dir, { recursive: true })
    const file = join(dir, `ops-health-${randomUUID()}.tmp`)
    const value = randomUUID()
    try {
      await writeFile(file, value)
      if ((await readFile(file, 'utf8')) !== value) throw new Error('storage returned different content')
    } finally {
      await rm(file, { force: true })
    }
  }

  protected async queueBackend() {
    const name = app.config.get<{ default: string }>('queue').default
    await queue.use(name).sizeOf('default')
  }
}
