/*
|--------------------------------------------------------------------------
| npm run bench:variants: two web processes side by side
|--------------------------------------------------------------------------
|
| Compares two variants of the web process (environment variables over the
| `npm start` defaults, e.g. a setting or an experiment's switch) on one
| route, in the method of the http phase: one database with a year of
| history, the compiled build (`node ace build` first), and rounds of
| one-second wrk slices of a raw node:http server, variant A and variant B
| (B before A every other round), so all three are measured in the same
| seconds of a machine whose speed moves from minute to minute.
|
|   --a '{"NAME":"value"}'   variant A's extra environment (default: none);
|                            {db} in a value stands for the run's database name
|   --b '{"NAME":"value"}'   variant B's extra environment (default: none)
|   --db pg|sqlite           (default pg: PostgreSQL + Redis, the scale-out profile)
|   --path P                 (default the cached year of sleep)
|   --rounds N               (default 12)
|   --connections N          (default 16)
|
| The raw server here answers inside its request callback only; the complete
| run (http.ts, RawReference) also runs it deferred and takes the faster.
|
| Prints req/s, × raw, p99 and the web process's CPU µs per request of each.
|
*/
import { parseArgs } from 'node:util'
import { freePort } from '#tests/helpers/free_port'
import { NPM_START_ENV, NPM_START_NODE_OPTIONS } from '#tests/helpers/npm_start'
import { baseEnv, cleanupRunDir, createDatabase } from './lib/databases.js'
import { cleanUpOnInterrupt } from './lib/interrupt.js'
import { load, mergeLoads, type LoadSample } from './lib/load.js'
import { APP_ROOT, killAll, lastJson, runNode, sleep, startNode, waitForHttp } from './lib/processes.js'
import { LOAD_CPUS, SERVER_CPUS, cpuUs, pinSelf } from './http.js'

const { values } = parseArgs({
  options: {
    a: { type: 'string', default: '{}' },
    b: { type: 'string', default: '{}' },
    db: { type: 'string', default: 'pg' },
    path: { type: 'string', default: '/api/v1/users/bench/sleep?days=365' },
    rounds: { type: 'string', default: '12' },
    connections: { type: 'string', default: '16' },
  },
})
const variants = [values.a!, values.b!].map((json) => JSON.parse(json) as Record<string, string>)
const kind = values.db === 'sqlite' ? 'sqlite' : 'pg'
const rounds = Number(values.rounds)
const connections = Number(values.connections)
cleanUpOnInterrupt()


const db = await createDatabase(kind, { redis: kind === 'pg' })
const env = { ...baseEnv(), ...db.env, HRVAULT_ROLE: 'all', SYNC_ENABLED: 'false' }
try {
  process.stdout.write(`variants/${kind}: seeding a year of history\n`)
  const seed = lastJson<{ apiKey: string }>(await runNode(['bench/tasks/seed_history.ts', '--days', '365'], env))
  const headers = { 'X-API-Key': seed.apiKey, 'Accept-Encoding': 'identity' }
  pinSelf(LOAD_CPUS)
  const rawPort = await freePort()
  startNode(['bench/raw_server.ts'], { PORT: String(rawPort), NODE_OPTIONS: NPM_START_NODE_OPTIONS }, { cpus: SERVER_CPUS })
  const servers = []
  const databaseName = db.env.DATABASE_URL ? new URL(db.env.DATABASE_URL).pathname.slice(1) : ''
  const withDatabaseName = (variant: Record<string, string>) =>
    Object.fromEntries(Object.entries(variant).map(([name, value]) => [name, value.replaceAll('{db}', databaseName)]))
  for (const variant of variants) {
    const port = await freePort()
    const server = startNode(
      ['bench/server.js'],
      { ...NPM_START_ENV, ...env, PORT: String(port), RESPONSE_CACHE_MB: '32', NODE_OPTIONS: NPM_START_NODE_OPTIONS, ...withDatabaseName(variant) },
      { compiled: true, cwd: new URL('build/', APP_ROOT).pathname, cpus: SERVER_CPUS }
    )
    await waitForHttp(`http://127.0.0.1:${port}/health`, 60_000, server)
    servers.push({ pid: server.pid, url: `http://127.0.0.1:${port}${values.path}` })
  }
  await sleep(500)
  const rawUrl = `http://127.0.0.1:${rawPort}/`
  for (const url of [rawUrl, ...servers.map((s) => s.url)]) await load(url, { connections, seconds: 2, headers })

  const slices: LoadSample[][] = [[], [], []]
  const cpu = [0, 0]
  for (let round = 0; round < rounds; round++) {
    slices[0].push(await load(rawUrl, { connections, seconds: 1 }))
    for (const i of round % 2 ? [1, 0] : [0, 1]) {
      const before = cpuUs(servers[i].pid)
      slices[i + 1].push(await load(servers[i].url, { connections, seconds: 1, headers }))
      cpu[i] += cpuUs(servers[i].pid) - before
    }
  }
  const [raw, ...measured] = slices.map(mergeLoads)
  process.stdout.write(`variants/${kind}: raw node:http ${raw.req_per_s} req/s over the same rounds\n`)
  measured.forEach((m, i) => {
    const ratio = (m.req_per_s / raw.req_per_s).toFixed(3)
    const failed = m.non_2xx ? `, non-2xx ${m.non_2xx}` : ''
    process.stdout.write(`${'AB'[i]} ${JSON.stringify(variants[i])}: ${m.req_per_s} req/s, ${ratio} × raw, p99 ${m.p99_ms} ms, ${Math.round(cpu[i] / Math.max(1, m.requests))} µs CPU per request${failed}\n`)
  })
} finally {
  await db.drop()
  killAll()
  cleanupRunDir()
}
