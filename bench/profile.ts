/*
|--------------------------------------------------------------------------
| npm run bench:profile: where a request's time goes
|--------------------------------------------------------------------------
|
| One user with a year of history (tasks/seed_history.ts), then web processes
| started with `node --cpu-prof` (bench/server.ts, or its compiled build with
| --compiled) under wrk (else autocannon, lib/load.ts) at 16 connections (--connections): /health, the bare route, a
| cached and an uncached year of sleep, its CSV and insights. Each route's
| load window is cut out of the process's profile (the server's monotonic
| clock, /__bench/clock, is the profile's time base) and summarised: CPU
| share by package or app folder (self and inclusive) and the hottest
| functions. A raw node:http server is measured in the same run.
|
|   --db sqlite|pg    (default sqlite; pg also uses Redis, the scale-out profile)
|   --seconds N       load per route (default 5)
|   --connections N   connections of the load generator (default 16)
|   --compiled        run build/bench/server.js (`node ace build` output)
|   --only a,b        scenario names (health,bare,cached,uncached)
|   --plain           no profiler: the same loads, req/s and latency only
|   --node-options S  NODE_OPTIONS of the web process (default: those `npm start` sets)
|
| Writes tmp/profiles/<db>-<time>/: the .cpuprofile files (never committed)
| and summary.md / summary.json.
|
*/
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { freePort } from '#tests/helpers/free_port'
import { baseEnv, cleanupRunDir, createDatabase } from './lib/databases.js'
import { cleanUpOnInterrupt } from './lib/interrupt.js'
import { LOAD_GENERATOR, load, type LoadResult } from './lib/load.js'
import { APP_ROOT, killAll, lastJson, runNode, sleep, startNode, waitForHttp } from './lib/processes.js'
import { NPM_START_ENV, NPM_START_NODE_OPTIONS } from '#tests/helpers/npm_start'
import { LOAD_CPUS, PIN, SERVER_CPUS, cpuUs, pinSelf } from './http.js'

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    compiled: { type: 'boolean', default: false },
    only: { type: 'string', default: 'health,bare,cached,uncached' },
    role: { type: 'string', default: 'all' },
    plain: { type: 'boolean', default: false },
    'node-options': { type: 'string' },
  },
})
const kind = values.db === 'pg' ? 'pg' : 'sqlite'
const SECONDS = Number(values.seconds)
const CONNECTIONS = Number(values.connections)
const only = new Set(values.only!.split(','))
const NODE_OPTIONS = values['node-options'] ?? NPM_START_NODE_OPTIONS
cleanUpOnInterrupt()

const USER_PATH = '/api/v1/users/bench'
const SCENARIOS = [
  { name: 'health', cacheMb: 32, routes: [{ name: '/health', path: '/health' }] },
  { name: 'bare', cacheMb: 32, routes: [{ name: 'bare route', path: '/api/__bench/bare' }, { name: 'not found', path: '/api/v1/nothing-here' }] },
  {
    name: 'cached',
    cacheMb: 32,
    routes: [
      { name: 'cached sleep?days=365', path: `${USER_PATH}/sleep?days=365` },
      { name: 'cached insights', path: `${USER_PATH}/insights` },
      { name: 'cached sleep.csv', path: `${USER_PATH}/export/sleep.csv?days=365` },
      { name: 'cached sleep?days=365, gzip', path: `${USER_PATH}/sleep?days=365`, gzip: true },
      { name: 'cached sleep.csv, gzip', path: `${USER_PATH}/export/sleep.csv?days=365`, gzip: true },
    ],
  },
  {
    name: 'uncached',
    cacheMb: 0,
    routes: [
      { name: 'uncached sleep?days=365', path: `${USER_PATH}/sleep?days=365` },
      { name: 'uncached sleep.csv', path: `${USER_PATH}/export/sleep.csv?days=365` },
      { name: 'uncached insights', path: `${USER_PATH}/insights` },
    ],
  },
].filter((s) => only.has(s.name)) as Array<{ name: string; cacheMb: number; routes: Array<{ name: string; path: string; gzip?: true }> }>

// ---- Profile reading --------------------------------------------------------------------------
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

/** Package, node module or app folder a script URL belongs to. */
function areaOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)'
  const nm = url.lastIndexOf('node_modules/')
  if (nm >= 0) {
    const parts = url.slice(nm + 'node_modules/'.length).split('/')
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
  }
  if (url.startsWith('node:')) {
    const parts = url.slice(5).split('/')
    return `node:${parts[0] === 'internal' ? parts.slice(0, 2).join('/') : parts[0]}`
  }
  const root = APP_ROOT.href
  const local = url.startsWith(root) ? url.slice(root.length) : url
  const parts = local.replace(/^build\//, '').split('/')
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]
}

interface Summary {
  samples_ms: number
  self_by_area: Array<{ area: string; ms: number; share: number }>
  inclusive_by_area: Array<{ area: string; share: number }>
  top_functions: Array<{ function: string; area: string; ms: number; share: number }>
}

/** Self and inclusive time per area and the hottest functions, for samples in [fromUs, toUs]. */
function summarise(profile: CpuProfile, fromUs: number, toUs: number): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  const functions = new Map<string, { area: string; ms: number }>()
  let t = profile.startTime
  let total = 0
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]
    if (t < fromUs || t > toUs) continue
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000
    const node = byId.get(profile.samples[i])!
    const { functionName, url, lineNumber } = node.callFrame
    if (functionName === '(idle)') continue
    total += dt
    const area = areaOf(url, functionName)
    self.set(area, (self.get(area) ?? 0) + dt)
    const fnKey = `${functionName || '(anonymous)'} ${url ? url.replace(APP_ROOT.href, '').replace(/.*node_modules\//, '') : ''}:${lineNumber + 1}`
    const f = functions.get(fnKey) ?? { area, ms: 0 }
    f.ms += dt
    functions.set(fnKey, f)
    const seen = new Set<string>()
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame
      if (frame.functionName === '(root)') continue
      seen.add(areaOf(frame.url, frame.functionName))
    }
    for (const a of seen) inclusive.set(a, (inclusive.get(a) ?? 0) + dt)
  }
  const share = (ms: number) => Math.round((ms / Math.max(total, 1e-9)) * 1000) / 10
  const round = (ms: number) => Math.round(ms)
  return {
    samples_ms: round(total),
    self_by_area: [...self].sort((a, b) => b[1] - a[1]).slice(0, 18).map(([area, ms]) => ({ area, ms: round(ms), share: share(ms) })),
    inclusive_by_area: [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 18).map(([area, ms]) => ({ area, share: share(ms) })),
    top_functions: [...functions].sort((a, b) => b[1].ms - a[1].ms).slice(0, 20).map(([fn, f]) => ({ function: fn, area: f.area, ms: round(f.ms), share: share(f.ms) })),
  }
}


// ---- Run --------------------------------------------------------------------------------------
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)
const outDir = new URL(`tmp/profiles/${kind}${values.compiled ? '-compiled' : ''}-${stamp}/`, APP_ROOT)
mkdirSync(outDir, { recursive: true })
const report: Array<{ scenario: string; route: string; path: string; load: LoadResult; cpu_us_per_request: number; ratio_to_raw: number; summary: Summary | null }> = []
let raw: LoadResult | null = null
let rawCpu = 0

const db = await createDatabase(kind, { redis: kind === 'pg' })
const env = { ...baseEnv(), ...db.env, HRVAULT_ROLE: values.role!, SYNC_ENABLED: 'false' }
try {
  process.stdout.write(`profile/${kind}: seeding a year of history\n`)
  const seed = lastJson<{ apiKey: string; rowsWritten: number }>(await runNode(['bench/tasks/seed_history.ts', '--days', '365'], env))
  const headers = { 'X-API-Key': seed.apiKey }

  pinSelf(LOAD_CPUS)
  const rawPort = await freePort()
  const rawServer = startNode(['bench/raw_server.ts'], { PORT: String(rawPort), NODE_OPTIONS: NPM_START_NODE_OPTIONS }, { cpus: SERVER_CPUS })
  try {
    await sleep(500)
    await load(`http://127.0.0.1:${rawPort}/`, { connections: CONNECTIONS, seconds: 1 })
    const before = cpuUs(rawServer.pid)
    raw = await load(`http://127.0.0.1:${rawPort}/`, { connections: CONNECTIONS, seconds: SECONDS })
    rawCpu = Math.round((cpuUs(rawServer.pid) - before) / Math.max(1, raw.requests))
    process.stdout.write(`profile/${kind}: raw node:http ${raw.req_per_s} req/s, ${rawCpu} µs CPU per request\n`)
  } finally {
    await rawServer.stop()
  }

  for (const scenario of SCENARIOS) {
    const dir = new URL(`${scenario.name}/`, outDir)
    mkdirSync(dir, { recursive: true })
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    // The compiled build runs from build/, as bin/start.mjs runs it.
    const entry = values.compiled ? 'bench/server.js' : 'bench/server.ts'
    const server = startNode(
      values.plain ? [entry] : [`--cpu-prof`, `--cpu-prof-dir=${dir.pathname}`, entry],
      { ...NPM_START_ENV, ...env, PORT: String(port), RESPONSE_CACHE_MB: String(scenario.cacheMb), NODE_OPTIONS },
      { compiled: values.compiled, cwd: values.compiled ? new URL('build/', APP_ROOT).pathname : undefined, cpus: SERVER_CPUS }
    )
    const windows: Array<{ route: (typeof scenario.routes)[number]; from: number; to: number; result: LoadResult; cpu: number }> = []
    try {
      await waitForHttp(`${base}/health`, 60_000, server)
      await sleep(1000)
      const clock = async () => ((await (await fetch(`${base}/__bench/clock`)).json()) as { us: number }).us
      for (const route of scenario.routes) {
        const routeHeaders = { ...headers, 'Accept-Encoding': route.gzip ? 'gzip' : 'identity' }
        // The bytes on the wire (fetch decodes a compressed body).
        const probe = await fetch(base + route.path, { headers: routeHeaders })
        const decoded = await probe.arrayBuffer()
        const bytes = Number(probe.headers.get('content-length') ?? decoded.byteLength)
        await load(base + route.path, { connections: CONNECTIONS, seconds: 1, headers: routeHeaders })
        const from = await clock()
        const cpuBefore = cpuUs(server.pid)
        const result = await load(base + route.path, { connections: CONNECTIONS, seconds: SECONDS, headers: routeHeaders })
        const cpu = Math.round((cpuUs(server.pid) - cpuBefore) / Math.max(1, result.requests))
        const to = await clock()
        windows.push({ route, from, to, result, cpu })
        process.stdout.write(`profile/${kind}/${scenario.name}: ${route.name.padEnd(24)} ${bytes} bytes, ${result.req_per_s} req/s p50 ${result.p50_ms} p99 ${result.p99_ms} ms, ${cpu} µs CPU per request${result.non_2xx ? ` non-2xx ${result.non_2xx}` : ''}\n`)
      }
    } finally {
      // SIGUSR2: bench/server.ts exits at once, which writes the profile.
      server.child.kill('SIGUSR2')
      await new Promise((resolve) => server.child.once('exit', resolve))
    }
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
    const profile = file ? (JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as CpuProfile) : null
    for (const w of windows) {
      report.push({
        scenario: scenario.name,
        route: w.route.name,
        path: w.route.path,
        load: w.result,
        cpu_us_per_request: w.cpu,
        ratio_to_raw: Math.round((w.result.req_per_s / raw!.req_per_s) * 1000) / 1000,
        summary: profile ? summarise(profile, w.from, w.to) : null,
      })
    }
  }
} finally {
  await db.drop()
  killAll()
  cleanupRunDir()
}

const lines: string[] = [`# Profile, ${kind}${values.compiled ? ' (compiled)' : ''}, ${new Date().toISOString()}`, '']
const placement = PIN ? `servers on CPU ${SERVER_CPUS}, load generator (${LOAD_GENERATOR}) on CPU ${LOAD_CPUS}` : `unpinned, load generator ${LOAD_GENERATOR}`
lines.push(`raw node:http: ${raw?.req_per_s} req/s at ${CONNECTIONS} connections, ${rawCpu} µs CPU per request; ${placement}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`, '')
for (const r of report) {
  lines.push(`## ${r.route} — ${r.load.req_per_s} req/s (${r.ratio_to_raw} × raw), p50 ${r.load.p50_ms} ms, p99 ${r.load.p99_ms} ms, ${r.cpu_us_per_request} µs CPU per request`, '')
  if (!r.summary) continue
  const perRequestUs = Math.round((r.summary.samples_ms * 1000) / Math.max(1, r.load.requests))
  lines.push(`CPU sampled ${r.summary.samples_ms} ms for ${r.load.requests} requests (≈ ${perRequestUs} µs per request in this process).`, '')
  lines.push('| area | self % | | area | inclusive % |', '|---|---:|---|---|---:|')
  for (let i = 0; i < 14; i++) {
    const s = r.summary.self_by_area[i]
    const inc = r.summary.inclusive_by_area[i]
    lines.push(`| ${s?.area ?? ''} | ${s?.share ?? ''} | | ${inc?.area ?? ''} | ${inc?.share ?? ''} |`)
  }
  lines.push('', '| function | area | self % |', '|---|---|---:|')
  for (const f of r.summary.top_functions.slice(0, 12)) lines.push(`| \`${f.function}\` | ${f.area} | ${f.share} |`)
  lines.push('')
}
writeFileSync(new URL('summary.md', outDir), lines.join('\n'))
writeFileSync(new URL('summary.json', outDir), JSON.stringify({ raw, raw_cpu_us_per_request: rawCpu, report }, null, 2))
process.stdout.write(`written ${outDir.pathname}summary.md\n`)
