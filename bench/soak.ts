/*
|--------------------------------------------------------------------------
| Soak test: `npm run soak`
|--------------------------------------------------------------------------
|
| Starts HRVault (production mode, loopback only, its own SQLite database or
| PostgreSQL with SOAK_DB=pg) and the Polar simulator, then for a bounded
| time holds a mixed read load on the analytics API while syncs run
| concurrently. Records requests, errors and the server's RSS over time in
| bench/results/soak-<date>.json.
|
| Settings (environment or `--name=value`):
|   SOAK_SECONDS      duration of the load (default 600)
|   SOAK_CONNECTIONS  concurrent HTTP connections of the read load (default 8)
|   SOAK_USERS        users synced and read (default 4)
|   SOAK_SYNC_EVERY   seconds between sync rounds (default 10; two users per round)
|   SOAK_SAMPLE_EVERY seconds between RSS samples (default 5)
|   SOAK_DB           sqlite (default) or pg
|   SOAK_POLAR_LIMIT  `real` keeps the simulator's Polar rate limit (syncs then meet 503s)
|
*/
import { mkdirSync, writeFileSync } from 'node:fs'
import { freePort } from '#tests/helpers/free_port'
import autocannon from 'autocannon'
import { startPolarSimulator } from '#simulators/polar/simulator'
import { baseEnv, cleanupRunDir, createDatabase } from './lib/databases.js'
import { APP_ROOT, rssMb, runNode, sleep, startNode, waitForHttp } from './lib/processes.js'

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => {
      const [key, value] = a.slice(2).split('=')
      return [key.toUpperCase().replace(/-/g, '_'), value ?? 'true']
    })
)
const setting = (name: string, fallback: number) => Number(args[name] ?? process.env[`SOAK_${name}`] ?? fallback)

const SECONDS = setting('SECONDS', 600)
const CONNECTIONS = setting('CONNECTIONS', 8)
const USERS = setting('USERS', 4)
const SYNC_EVERY = setting('SYNC_EVERY', 10)
const SAMPLE_EVERY = setting('SAMPLE_EVERY', 5)
const DB_KIND = (args.DB ?? process.env.SOAK_DB ?? 'sqlite') === 'pg' ? 'pg' : 'sqlite'

const READ_PATHS = [
  (u: string) => `/api/v1/users/${u}/sleep?days=7`,
  (u: string) => `/api/v1/users/${u}/activity?days=30`,
  (u: string) => `/api/v1/users/${u}/recharge?days=30`,
  (u: string) => `/api/v1/users/${u}/heart-rate?days=7`,
  (u: string) => `/api/v1/users/${u}/exercises?days=30`,
  (u: string) => `/api/v1/users/${u}/cardio-load?days=30`,
  (u: string) => `/api/v1/users/${u}/baselines`,
  (u: string) => `/api/v1/users/${u}/anomalies`,
  (u: string) => `/api/v1/users/${u}/insights`,
  (u: string) => `/api/v1/users/${u}/analytics/status`,
  (u: string) => `/api/v1/users/${u}/export/summary`,
  (u: string) => `/api/v1/users/${u}/export/sleep.csv?days=30`,
  () => `/health`,
]

async function main() {
  const startedAt = new Date()
  // Polar's own rate limit is not what this measures: give the simulator a budget the syncs never spend
  // (SOAK_POLAR_LIMIT=real keeps the simulator's default, so syncs meet 503 provider rate limits).
  const realLimit = (args.POLAR_LIMIT ?? process.env.SOAK_POLAR_LIMIT) === 'real'
  const sim = await startPolarSimulator({ window: 28, latencyMs: 5, ...(realLimit ? {} : { rateLimit: { short: 1_000_000, long: 10_000_000 } }) })
  const database = await createDatabase(DB_KIND)
  const port = await freePort()
  const env = {
    ...baseEnv(),
    ...database.env,
    PORT: String(port),
    POLAR_API_BASE_URL: sim.url,
    POLAR_AUTH_URL: sim.authUrl,
    POLAR_TOKEN_URL: sim.tokenUrl,
  }
  const base = `http://127.0.0.1:${port}`
  const server = startNode(['bin/server.ts'], env)
  const samples: Array<{ t: number; rss_mb: number | null; requests: number; errors: number }> = []
  const syncs: Record<string, number> = {}
  let totalRequests = 0
  let errorResponses = 0
  const statusCounts: Record<string, number> = {}
  try {
    await waitForHttp(`${base}/health`, 120_000, server)
    const created = await runNode(['ace.js', 'api-key', 'create', '--name', 'soak'], env)
    const key = /hrv_[A-Za-z0-9_-]{43}/.exec(created)?.[0]
    if (!key) throw new Error(`no key in output:\n${created}`)
    const headers = { 'X-API-Key': key }

    const users = Array.from({ length: USERS }, (_, i) => `soak_user_${i}`)
    const sync = async (user: string) => {
      const response = await fetch(`${base}/api/v1/users/${user}/sync/trigger`, {
        method: 'POST',
        headers: { ...headers, 'X-Provider-Token': `${user}_bio_complete` },
      }).catch((error) => ({ status: `error:${error.code ?? error.message}` }) as const)
      const status = String(response.status)
      syncs[status] = (syncs[status] ?? 0) + 1
      if ('body' in response) await response.arrayBuffer()
    }
    // First data for every user.
    for (const user of users) await sync(user)

    const t0 = Date.now()
    const sample = () => samples.push({ t: Math.round((Date.now() - t0) / 1000), rss_mb: rssMb(server.pid), requests: totalRequests, errors: errorResponses })
    sample()
    const sampler = setInterval(sample, SAMPLE_EVERY * 1000)

    // Concurrent syncs: every SYNC_EVERY seconds two users at once (409 when one is still running).
    let syncing = true
    const syncLoop = (async () => {
      let round = 0
      while (syncing) {
        await sleep(SYNC_EVERY * 1000)
        if (!syncing) break
        const a = users[round % users.length]
        const b = users[(round + 1) % users.length]
        round++
        await Promise.all([sync(a), sync(b)])
      }
    })()

    let counter = 0
    const instance = (autocannon as any)({
      url: base,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers,
      requests: [
        {
          setupRequest: (request: any) => {
            counter++
            const user = users[counter % users.length]
            return { ...request, method: 'GET', path: READ_PATHS[counter % READ_PATHS.length](user) }
          },
        },
      ],
    })
    instance.on('response', (_client: unknown, statusCode: number) => {
      totalRequests++
      statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1
      if (statusCode >= 400) errorResponses++
    })
    const result = await instance
    syncing = false
    await syncLoop
    clearInterval(sampler)
    sample()

    const rss = samples.map((s) => s.rss_mb).filter((v): v is number => v !== null)
    const report = {
      started_at: startedAt.toISOString(),
      finished_at: new Date().toISOString(),
      settings: { polar_rate_limit: realLimit ? 'simulator default' : 'unbounded', seconds: SECONDS, connections: CONNECTIONS, users: USERS, sync_every_s: SYNC_EVERY, database: DB_KIND, node: process.version },
      requests: {
        total: result.requests.total,
        per_second_avg: result.requests.average,
        statuses: statusCounts,
        error_responses: errorResponses,
        socket_errors: result.errors,
        timeouts: result.timeouts,
        latency_ms: { p50: result.latency.p50, p99: result.latency.p99, avg: result.latency.average, max: result.latency.max },
      },
      syncs: { by_status: syncs, total: Object.values(syncs).reduce((a, b) => a + b, 0) },
      rss_mb: { start: rss[0] ?? null, end: rss.at(-1) ?? null, max: Math.max(...rss), min: Math.min(...rss) },
      samples,
    }
    const dir = new URL('bench/results/', APP_ROOT)
    mkdirSync(dir, { recursive: true })
    const file = new URL(`soak-${startedAt.toISOString().slice(0, 19).replace(/:/g, '-')}.json`, dir)
    writeFileSync(file, JSON.stringify(report, null, 2) + '\n')
    const { samples: _omit, ...summary } = report
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\nwritten to ${file.pathname}\n`)
    if (result.errors > 0 || Object.keys(statusCounts).some((s) => Number(s) >= 500)) process.exitCode = 1
  } finally {
    await server.stop()
    await sim.close()
    await database.drop()
    cleanupRunDir()
  }
}

await main()
