import { HotQueries } from '#services/hot_queries'

const DATABASE_TIMEOUT_MS = 2000

/**
 * The public `GET /health` probe (spec: `{status, database}`): one real query against the database,
 * bounded in time. The operations API's per-backend report is DependencyHealthService.
 */
export class HealthProbeService {
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
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), DATABASE_TIMEOUT_MS)
    })
    // A prepared statement on the driver: the probe is polled, and the query builder was most of its cost.
    const query = HotQueries.first('select 1 as ok', [], this.connectionName)
      .then(() => true)
      .catch(() => false)
    try {
      return await Promise.race([query, timeout])
    } finally {
      clearTimeout(timer)
    }
  }
}
