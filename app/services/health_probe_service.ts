import { HotQueries } from '#services/hot_queries'
import { CoalescedCalls } from '#services/coalesced_calls'

const DATABASE_TIMEOUT_MS = 2000

/**
 * Probes of one connection that arrive while one runs go together in the next (CoalescedCalls): a
 * polled /health costs one query per round trip, and each answer is from a query started after
 * its request arrived.
 */
const probes = new CoalescedCalls<string | undefined, boolean>((connectionName) => answersWithin(connectionName))

async function answersWithin(connectionName: string | undefined): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), DATABASE_TIMEOUT_MS)
  })
  // A prepared statement on the driver: the probe is polled, and the query builder was most of its cost.
  const query = HotQueries.first('select 1 as ok', [], connectionName)
    .then(() => true)
    .catch(() => false)
  try {
    return await Promise.race([query, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The public `GET /health` probe (spec: `{status, database}`): one real query against the database,
 * bounded in time. The operations API's per-backend report is DependencyHealthService.
 */
export class HealthProbeService {
  /** 200 for a healthy report, 503 otherwise. */
  static httpStatus(report: { status: 'healthy' | 'unhealthy' }): 200 | 503 {
    return report.status === 'healthy' ? 200 : 503
  }

  /** Lucid connection to probe; the primary connection when undefined. */
  protected connectionName?: string

  /** `healthy`/`connected` when the database answered within DATABASE_TIMEOUT_MS. */
  async check(): Promise<{ status: 'healthy' | 'unhealthy'; database: 'connected' | 'disconnected' }> {
    const connected = await this.databaseAnswers()
    return connected
      ? { status: 'healthy', database: 'connected' }
      : { status: 'unhealthy', database: 'disconnected' }
  }

  protected async databaseAnswers(): Promise<boolean> {
    return (await probes.call(this.connectionName)).result
  }
}
