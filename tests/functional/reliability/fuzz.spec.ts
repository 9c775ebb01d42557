import { test } from '@japa/runner'
import fc from 'fast-check'
import { isOAuthEndpointPath, isProblemJsonPath, mcpPath } from '#config/surfaces'
import { FuzzEnvironment } from '#tests/helpers/fuzz/environment'
import { requestArb, type GeneratedRequest } from '#tests/helpers/fuzz/arbitraries'
import { send, type RawResponse } from '#tests/helpers/fuzz/http'
import { countDiff, rowCounts } from '#tests/helpers/fuzz/db_snapshot'
import { allRoutes, isMutation } from '#tests/helpers/fuzz/routes'
import { emptyDatabase } from '#tests/helpers/database'

/*
| Sample size and seed: FUZZ_RUNS (default 300 inside `npm test`; `npm run
| test:fuzz` runs 10 000) and FUZZ_SEED (default fixed, so every run sends
| the same requests). A failure prints the seed and the request index.
| FUZZ_SURFACE (e.g. `mcp`) aims every request at the routes of one surface.
*/
const RUNS = Number(process.env.FUZZ_RUNS ?? 300)
const SEED = Number(process.env.FUZZ_SEED ?? 20261122)
const SURFACE = process.env.FUZZ_SURFACE
const CHUNK = 100

/**
 * Upstream trouble is the only acceptable 5xx: a 502/503/504 whose problem
 * code names the upstream (Polar for a sync, Coolify or a deployed
 * application's ops API for the dashboard). Both upstreams are configured
 * here (loopback simulators), so these appear only where the generated input
 * makes the upstream refuse (a provider token the simulator rejects, a
 * Coolify 4xx/5xx passed through as the spec says).
 */
const UPSTREAM_CODES = /^E_(SYNC_FAILED|PROVIDER_[A-Z_]+|POLAR_[A-Z_]+|COOLIFY_[A-Z_]+)$/

/**
 * Rows an authenticated mutation may leave even when refused: the audit log
 * records every attempted operator action (a retry of an unknown job, a
 * Coolify action the upstream refused) with its outcome.
 */
const AUDITED_ATTEMPT_TABLES = new Set(['audit_logs'])

/**
 * Known contract gaps owned by other areas, counted and printed but not
 * failed, each with the change that closes it. Remove an entry once fixed.
 */
const KNOWN_GAPS: Array<{ id: string; matches: (req: GeneratedRequest, res: RawResponse, json: any) => boolean }> = [
]

interface Failure {
  index: number
  request: string
  status: number
  reason: string
}

function describe(req: GeneratedRequest) {
  const headers = req.headers.map(([n, v]) => `${n}: ${v.length > 80 ? v.slice(0, 80) + '…' : v}`).join(' | ')
  const body = req.body === undefined ? '' : ` body(${Buffer.byteLength(req.body)}B)=${String(req.body).slice(0, 120)}`
  return `${req.method} ${req.path.slice(0, 300)} [${req.route.name}] {${headers}}${body}`
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const isTransportRefusal = (res: RawResponse) => [400, 431].includes(res.status) && !res.headers.date && res.body === ''

/** Contract checks of one answer; returns the broken rule, or null. */
function check(req: GeneratedRequest, res: RawResponse, diff: Record<string, [number, number]>): string | null {
  const pathname = req.path.split('?')[0]
  const problemPath = isProblemJsonPath(pathname) || req.route.problemJson
  const json = parseJson(res.body)
  const upstream = [502, 503, 504].includes(res.status) && typeof json?.code === 'string' && UPSTREAM_CODES.test(json.code)

  if (res.status >= 500 && !upstream) return `5xx: ${res.body.slice(0, 300)}`
  // Node's HTTP parser refuses a malformed request line or an oversized header block (400/431,
  // no Date header, no body) before the application sees the request.
  if (isTransportRefusal(res)) return null
  const headerBytes = Object.entries(res.headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 0)
  if (headerBytes > 16 * 1024) return `response header block of ${headerBytes} bytes (over Node's 16 KB default): ${String(res.headers.location ?? '').slice(0, 120)}`
  // The OAuth endpoints answer errors in their RFCs' JSON ({error, error_description}), which OAuth clients parse.
  const oauthError = isOAuthEndpointPath(pathname) && typeof json?.error === 'string'
  // The MCP endpoint answers protocol errors as JSON-RPC error objects, which MCP clients parse.
  const jsonRpcError = pathname === mcpPath && json?.jsonrpc === '2.0' && typeof json?.error === 'object' && json.error !== null
  if (res.status >= 400 && jsonRpcError && req.method !== 'HEAD') {
    if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) return `JSON-RPC error without application/json: ${res.body.slice(0, 200)}`
    if (!Number.isInteger(json.error.code) || typeof json.error.message !== 'string') return `malformed JSON-RPC error: ${res.body.slice(0, 200)}`
  } else if (res.status >= 400 && oauthError && req.method !== 'HEAD') {
    const type = String(res.headers['content-type'] ?? '')
    if (!type.startsWith('application/json') || typeof json.error_description !== 'string') return `malformed OAuth error: ${res.body.slice(0, 200)}`
    if (res.headers['cache-control'] !== 'no-store') return 'OAuth error without Cache-Control: no-store'
  } else if (res.status >= 400 && problemPath && req.method !== 'HEAD') {
    const type = String(res.headers['content-type'] ?? '')
    if (!type.startsWith('application/problem+json')) return `error without problem+json (${type}): ${res.body.slice(0, 200)}`
    if (!json || json.status !== res.status || typeof json.title !== 'string' || typeof json.type !== 'string' || typeof json.detail !== 'string') {
      return `malformed problem body: ${res.body.slice(0, 200)}`
    }
    if (/\bat [\w$.<>]+ \(|node_modules|\/work\/|\.ts:\d+/.test(res.body)) return `internals in error body: ${res.body.slice(0, 200)}`
  }
  const written = Object.keys(diff).filter((t) => !(isMutation(req.method) && AUDITED_ATTEMPT_TABLES.has(t)))
  if (res.status >= 400 && !upstream && written.length > 0) return `rejected request wrote rows: ${JSON.stringify(diff)}`
  if (/root:x:0:0:|\[boot loader\]/.test(res.body)) return 'path traversal: a system file was served'
  if (req.oversized && res.status < 400) return `oversized body accepted with ${res.status}`
  return null
}

test.group('Reliability | hostile input across every route', (group) => {
  const environment = new FuzzEnvironment()
  group.setup(async () => {
    await emptyDatabase()
    await environment.start()
    await environment.syncAlice()
    return async () => {
      await environment.stop()
      await emptyDatabase()
    }
  })

  test('generated requests never produce a 5xx, a non-problem error or a write when rejected', async ({ assert }) => {
    const routes = allRoutes().filter((route) => !SURFACE || route.surface === SURFACE)
    const ctx = await environment.context(routes)
    const arb = requestArb(ctx)
    const failures: Failure[] = []
    const statuses = new Map<number, number>()
    const perSurface = new Map<string, number>()
    const routesHit = new Set<string>()
    const knownGaps = new Map<string, number>()
    let transportRefusals = 0
    let upstream5xx = 0
    let closedEarly = 0
    let sent = 0

    for (let chunk = 0; sent < RUNS; chunk++) {
      const batch = fc.sample(arb, { seed: SEED + chunk, numRuns: Math.min(CHUNK, RUNS - sent) })
      for (const req of batch) {
        const index = sent++
        const before = await rowCounts()
        let res: RawResponse
        try {
          res = await send(environment.port, req)
        } catch (error: any) {
          // An oversized body may be refused before it is fully written.
          if (req.body !== undefined && Buffer.byteLength(req.body) > ctx.bodyLimit && ['EPIPE', 'ECONNRESET'].includes(error.code)) {
            closedEarly++
            continue
          }
          failures.push({ index, request: describe(req), status: 0, reason: `no answer: ${error.message}` })
          continue
        }
        const diff = countDiff(before, await rowCounts())
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
        perSurface.set(req.route.surface, (perSurface.get(req.route.surface) ?? 0) + 1)
        routesHit.add(req.route.name)
        if (res.status >= 500) upstream5xx++
        if (isTransportRefusal(res)) transportRefusals++
        const reason = check(req, res, diff)
        const gap = reason ? KNOWN_GAPS.find((g) => g.matches(req, res, parseJson(res.body))) : undefined
        if (gap) knownGaps.set(gap.id, (knownGaps.get(gap.id) ?? 0) + 1)
        else if (reason) failures.push({ index, request: describe(req), status: res.status, reason })

        // A generated logout ends the admin session the generator uses: log in again.
        if (req.route.name === 'admin.logout' || [res.headers['set-cookie'] ?? []].flat().some((c) => /hrvault-session=;|max-age=0/i.test(c))) {
          await environment.login()
        }
      }
    }

    const summary = {
      seed: SEED,
      requests: sent,
      routes: routes.length,
      routesHit: routesHit.size,
      perSurface: Object.fromEntries(perSurface),
      statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      upstream5xx,
      transportRefusals,
      closedEarly,
      knownGaps: Object.fromEntries(knownGaps),
      failures: failures.length,
    }
    console.log(`fuzz summary: ${JSON.stringify(summary)}`)
    for (const failure of failures.slice(0, 15)) {
      console.log(`  #${failure.index} ${failure.status} ${failure.reason}\n     ${failure.request}`)
    }
    assert.lengthOf(failures, 0, `${failures.length} of ${sent} requests broke the contract (seed ${SEED})`)
    if (RUNS >= routes.length * 20) {
      assert.equal(routesHit.size, routes.length, 'every route received requests')
    }
  }).timeout(0)
})
