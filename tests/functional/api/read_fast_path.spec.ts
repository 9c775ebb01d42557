import { test } from '@japa/runner'
import type { AddressInfo } from 'node:net'
import { request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import testUtils from '@adonisjs/core/services/test_utils'
import server from '@adonisjs/core/services/server'
import app from '@adonisjs/core/services/app'
import { createHttpServer, whenFastPathReady } from '#services/http_server'
import { renderedRead } from '#services/rendered_reads'
import { ResponseCache } from '#services/response_cache'
import { ApiKeyService } from '#services/auth/api_key_service'
import { DataVersionService } from '#services/data_version_service'
import { serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { withRequestBudget } from '#tests/helpers/fuzz/rate_limits'
import { NOW, seed } from '#tests/functional/api/v1/analytics/helpers'
import { overreached } from '#tests/functional/api/v1/analytics/scenarios'
import db from '@adonisjs/lucid/services/db'
import { gunzipSync } from 'node:zlib'

/**
 * ReadFastPath, seen from a client: the production node:http server (createHttpServer) in front of
 * the booted application's own request handler, which counts the requests that reach it. What the
 * fast path answers never reaches the pipeline, and must be what the pipeline would have answered.
 */
async function pipelineServer() {
  const reached: string[] = []
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    reached.push(request.url!)
    return server.handle(request, response)
  }
  const http: Server = createHttpServer(handler)
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  await whenFastPathReady(http)
  const port = (http.address() as AddressInfo).port
  return {
    reached,
    get: (path: string, headers: Record<string, string> = {}, method = 'GET') => send(port, method, path, headers),
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  }
}

interface Answer {
  status: number
  headers: Record<string, string>
  text: string
  /** The body's bytes as sent (compressed when `content-encoding` says so). */
  bytes: Buffer
}

/** A request through node:http (fetch adds `Cache-Control: no-cache` to a conditional request). */
function send(port: number, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        const bytes = Buffer.concat(chunks)
        resolve({ status: response.statusCode!, headers: response.headers as Record<string, string>, text: bytes.toString('utf8'), bytes })
      })
    })
    request.on('error', reject)
    request.end()
  })
}

/** Headers that differ between two answers of the same content by design. */
const PER_REQUEST = new Set(['date', 'ratelimit-remaining', 'ratelimit-reset', 'x-request-id'])

function stableHeaders(answer: Answer): Record<string, string> {
  return Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !PER_REQUEST.has(name)))
}

/** The headers of an answer to a request with `Origin`, less what CORS adds (its headers, `Origin` in `Vary`). */
function withoutCors(answer: Answer): Record<string, string> {
  const headers = Object.entries(stableHeaders(answer)).filter(([name]) => !name.startsWith('access-control'))
  const vary = (value: string) => value.split(/\s*,\s*/).filter((token) => token.toLowerCase() !== 'origin').join(', ')
  return Object.fromEntries(headers.map(([name, value]) => [name, name === 'vary' ? vary(value) : value]).filter(([, value]) => value !== ''))
}

const PATHS = ['sleep?days=28', 'baselines', 'insights', 'anomalies', 'export/sleep.csv?days=28', 'activity?days=7', 'export/sleep.csv?days=28&limit=2']

test.group('API | read fast path', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => pinClock(NOW))
  let http: Awaited<ReturnType<typeof pipelineServer>>
  group.each.setup(async () => {
    http = await pipelineServer()
    return () => http.close()
  })

  test('a repeated read never reaches the pipeline and gets the pipeline answer: status, every header, body, 304', async ({ assert }) => {
    const owner = await userWithApiKey()
    await seed(owner.user.id, 45, overreached)
    const key = { 'X-API-Key': owner.apiKey }

    for (const path of PATHS) {
      const url = `/api/v1/users/${owner.user.externalId}/${path}`
      // An answer the database renders in one statement is rendered in front of the pipeline once
      // the key is known (its first check is the pipeline's).
      const firstIsPipeline = http.reached.length === 0 || renderedRead(url) === null
      const first = await http.get(url, key)
      assert.equal(first.status, 200, path)
      const firstBody = first.text
      assert.deepEqual(http.reached.filter((u) => u === url), firstIsPipeline ? [url] : [], path)

      const second = await http.get(url, key)
      assert.equal(second.status, 200, path)
      assert.equal(second.text, firstBody, path)
      assert.equal(Number(second.headers['ratelimit-remaining']), Number(first.headers['ratelimit-remaining']) - 1, path)
      // The pipeline's own cache hit (a CORS request is always the pipeline's): the same answer.
      const pipelineHit = await http.get(url, { ...key, Origin: 'http://127.0.0.1' })
      assert.equal(pipelineHit.text, firstBody, path)
      assert.deepEqual(stableHeaders(second), withoutCors(pipelineHit), path)
      // The first (computed) response has the same headers too (a CSV of one page is one body).
      assert.deepEqual(stableHeaders(second), stableHeaders(first), path)

      const notModified = await http.get(url, { ...key, 'If-None-Match': second.headers['etag'] })
      assert.equal(notModified.status, 304, path)
      assert.equal(notModified.text, '')
      assert.equal(notModified.headers['etag'], second.headers['etag'])
      assert.equal(Number(notModified.headers['ratelimit-remaining']), Number(first.headers['ratelimit-remaining']) - 3, path)
      // Only the first request of each URL (unless rendered here) and the CORS one were the pipeline's.
      assert.lengthOf(http.reached.filter((u) => u === url), firstIsPipeline ? 2 : 1, path)
    }
  })

  test('a write of the user data changes the next answer at once, from any process (the version is read every time)', async ({ assert }) => {
    const owner = await userWithApiKey()
    await seed(owner.user.id, 10, overreached)
    const url = `/api/v1/users/${owner.user.externalId}/sleep?days=28`
    const key = { 'X-API-Key': owner.apiKey }
    const first = await http.get(url, key)
    assert.lengthOf(JSON.parse(first.text), 10)
    await http.get(url, key)
    assert.lengthOf(http.reached, 1)

    // A write as a sync commits it: rows and the version bump in one transaction, here straight in SQL.
    await seed(owner.user.id, 5, overreached, 10)
    await DataVersionService.bump(db.connection(), owner.user.id)
    // In scale-out the fast path counts this request before its version read shows the write; the
    // pipeline then answers with that count instead of counting again.
    const after = await http.get(url, key)
    assert.lengthOf(JSON.parse(after.text), 15)
    // The whole-window list is rendered in front of the pipeline: the new answer never reached it.
    assert.lengthOf(http.reached, 1)
    const again = await http.get(url, key)
    assert.lengthOf(http.reached, 1)
    const remaining = [first, after, again].map((answer) => Number(answer.headers['ratelimit-remaining']))
    assert.deepEqual(remaining, [remaining[0], remaining[0] - 2, remaining[0] - 3])
  })

  test('everything it cannot answer exactly goes to the pipeline: other users, unknown and revoked keys, CORS, HEAD', async ({ assert }) => {
    const owner = await userWithApiKey()
    const other = await userWithApiKey()
    await seed(owner.user.id, 10, overreached)
    const url = `/api/v1/users/${owner.user.externalId}/baselines`
    const key = { 'X-API-Key': owner.apiKey }
    await http.get(url, key)
    await http.get(url, key)
    assert.lengthOf(http.reached, 1)

    // Another user's key: 403 from the pipeline, never the cached answer.
    assert.equal((await http.get(url, { 'X-API-Key': other.apiKey })).status, 403)
    // An unknown key: 401.
    assert.equal((await http.get(url, { 'X-API-Key': 'hrv_nothing_like_a_key' })).status, 401)
    // CORS and HEAD are the pipeline's.
    const cors = await http.get(url, { ...key, Origin: 'https://elsewhere.example' })
    assert.equal(cors.status, 200)
    const head = await http.get(url, key, 'HEAD')
    assert.equal(head.status, 200)
    assert.lengthOf(http.reached, 5)

    // A revoked key is refused at once in this process.
    const apiKeys = await app.container.make(ApiKeyService)
    const [listed] = (await apiKeys.list()).filter((k: any) => k.userId === owner.user.id)
    assert.isTrue(await apiKeys.revoke(listed.prefix))
    assert.equal((await http.get(url, key)).status, 401)
    assert.lengthOf(http.reached, 6)
  })

  test('a spent budget is the pipeline 429 with Retry-After; every fast answer counted once', async ({ assert, cleanup }) => {
    withRequestBudget(3, cleanup)
    const owner = await userWithApiKey()
    const url = `/api/v1/users/${owner.user.externalId}/anomalies`
    const key = { 'X-API-Key': owner.apiKey }
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push((await http.get(url, key)).status)
    assert.deepEqual(statuses, [200, 200, 200, 429, 429])
    const refused = await http.get(url, key)
    assert.equal(refused.headers['content-type'], 'application/problem+json; charset=utf-8')
    assert.isAbove(Number(refused.headers['retry-after']), 0)
  })

  test('with the read cache off, the rendered answers (year of sleep, its CSV, insights) are the pipeline answers, counted once', async ({ assert }) => {
    const owner = await userWithApiKey()
    await seed(owner.user.id, 45, overreached)
    const key = { 'X-API-Key': owner.apiKey }
    app.container.swap(ResponseCache, () => new ResponseCache(0))
    const uncached = await pipelineServer()
    try {
      const base = `/api/v1/users/${owner.user.externalId}`
      // The key's first check is the pipeline's.
      assert.equal((await uncached.get(`${base}/baselines`, key)).status, 200)
      let remaining = Number((await uncached.get(`${base}/baselines`, key)).headers['ratelimit-remaining'])
      for (const path of ['sleep?days=365', 'sleep?days=28', 'export/sleep.csv?days=365', 'insights']) {
        const url = `${base}/${path}`
        const fast = await uncached.get(url, key)
        assert.equal(fast.status, 200, path)
        assert.notInclude(uncached.reached, url, path)
        const viaPipeline = await uncached.get(url, { ...key, Origin: 'http://127.0.0.1' })
        assert.include(uncached.reached, url, path)
        assert.equal(fast.text, viaPipeline.text, path)
        assert.deepEqual(stableHeaders(fast), withoutCors(viaPipeline), path)
        assert.isUndefined(fast.headers['etag'], path)
        // Every answer counted exactly once.
        assert.equal(Number(fast.headers['ratelimit-remaining']), remaining - 1, path)
        assert.equal(Number(viaPipeline.headers['ratelimit-remaining']), remaining - 2, path)
        remaining -= 2
      }
      // Any other spelling of the query, valid or not, and other users are the pipeline's.
      for (const [path, status] of [
        ['sleep?days=028', 200],
        ['sleep?days=366', 422],
        ['sleep?days=7&limit=2', 200],
        ['export/sleep.csv?days=0', 422],
        ['insights?x=1', 422],
      ] as const) {
        const answer = await uncached.get(`${base}/${path}`, key)
        assert.equal(answer.status, status, path)
        assert.include(uncached.reached, `${base}/${path}`, path)
      }
      const service = { 'X-API-Key': await serviceApiKey() }
      const served = await uncached.get(`${base}/insights`, service)
      assert.equal(served.status, 200)
      const before = uncached.reached.length
      // An unknown user's rendered read is the pipeline's 404, counted once (in scale-out the fast
      // path counts it ahead, beside the version read, and the pipeline takes that count).
      let left = Number(served.headers['ratelimit-remaining'])
      for (const path of ['sleep?days=7', 'insights', 'export/sleep.csv?days=365', 'sleep?days=7&limit=2']) {
        const missing = await uncached.get(`/api/v1/users/nobody-at-all/${path}`, service)
        assert.equal(missing.status, 404, path)
        assert.equal(Number(missing.headers['ratelimit-remaining']), --left, path)
      }
      assert.equal(uncached.reached.length, before + 4)
    } finally {
      await uncached.close()
      app.container.restore(ResponseCache)
    }
  })

  test('a client accepting gzip gets held answers of 1 kB or more compressed, from the fast path and the pipeline alike, with their own ETag', async ({ assert }) => {
    const owner = await userWithApiKey()
    await seed(owner.user.id, 45, overreached)
    const key = { 'X-API-Key': owner.apiKey }
    const gzip = { ...key, 'Accept-Encoding': 'gzip, deflate, br' }
    for (const path of ['sleep?days=28', 'export/sleep.csv?days=60', 'insights']) {
      const url = `/api/v1/users/${owner.user.externalId}/${path}`
      const plain = await http.get(url, key)
      assert.equal(plain.status, 200, path)
      assert.isUndefined(plain.headers['content-encoding'], path)
      assert.equal(plain.headers['vary'], 'Accept-Encoding', path)
      assert.isAtLeast(plain.bytes.length, 1024, path)

      const fast = await http.get(url, gzip)
      assert.equal(fast.headers['content-encoding'], 'gzip', path)
      assert.equal(fast.headers['vary'], 'Accept-Encoding', path)
      assert.equal(Number(fast.headers['content-length']), fast.bytes.length, path)
      assert.isBelow(fast.bytes.length, plain.bytes.length / 2, path)
      assert.equal(gunzipSync(fast.bytes).toString('utf8'), plain.text, path)
      // A strong validator per content coding (RFC 9110 §8.8.3).
      assert.notEqual(fast.headers['etag'], plain.headers['etag'], path)
      assert.equal(fast.headers['content-type'], plain.headers['content-type'], path)

      // The pipeline's own hit (a CORS request): the same compressed bytes and headers.
      const pipelineHit = await http.get(url, { ...gzip, Origin: 'http://127.0.0.1' })
      assert.deepEqual(pipelineHit.bytes, fast.bytes, path)
      assert.deepEqual(withoutCors(pipelineHit), stableHeaders(fast), path)

      // Each validator names its own coding: 304 for the one the request selects, else the body.
      assert.equal((await http.get(url, { ...gzip, 'If-None-Match': fast.headers['etag'] })).status, 304, path)
      assert.equal((await http.get(url, { ...key, 'If-None-Match': plain.headers['etag'] })).status, 304, path)
      const other = await http.get(url, { ...gzip, 'If-None-Match': plain.headers['etag'] })
      assert.equal(other.status, 200, path)
      assert.deepEqual(other.bytes, fast.bytes, path)
      // gzip refused, or only codings HRVault does not offer: the identity.
      for (const refused of ['gzip;q=0', 'br', 'identity, gzip;q=0.5']) {
        const answer = await http.get(url, { ...key, 'Accept-Encoding': refused })
        assert.isUndefined(answer.headers['content-encoding'], `${path} ${refused}`)
        assert.equal(answer.text, plain.text, `${path} ${refused}`)
      }
    }
    // A small answer goes as it is, whatever the client accepts.
    const small = await http.get(`/api/v1/users/${owner.user.externalId}/sleep?days=1`, gzip)
    assert.equal(small.status, 200)
    assert.isBelow(small.bytes.length, 1024)
    assert.isUndefined(small.headers['content-encoding'])
    assert.equal(small.headers['vary'], 'Accept-Encoding')
  })

  test('with the read cache off, nothing is compressed and answers do not vary on Accept-Encoding', async ({ assert }) => {
    const owner = await userWithApiKey()
    await seed(owner.user.id, 45, overreached)
    app.container.swap(ResponseCache, () => new ResponseCache(0))
    const uncached = await pipelineServer()
    try {
      const headers = { 'X-API-Key': owner.apiKey, 'Accept-Encoding': 'gzip' }
      for (const path of ['sleep?days=28', 'sleep?days=7&limit=20', 'baselines']) {
        const answer = await uncached.get(`/api/v1/users/${owner.user.externalId}/${path}`, headers)
        assert.equal(answer.status, 200, path)
        assert.isUndefined(answer.headers['content-encoding'], path)
        assert.isUndefined(answer.headers['vary'], path)
        JSON.parse(answer.text)
      }
    } finally {
      await uncached.close()
      app.container.restore(ResponseCache)
    }
  })

  test('GET /health answers before the pipeline with the same body, status and headers', async ({ assert }) => {
    const fast = await http.get('/health')
    const viaPipeline = await http.get('/health', { Origin: 'http://127.0.0.1' })
    assert.equal(fast.status, 200)
    assert.equal(fast.text, viaPipeline.text)
    assert.deepEqual(JSON.parse(fast.text), { status: 'healthy', database: 'connected' })
    assert.deepEqual(http.reached, ['/health'])
    // The request's own X-Request-Id comes back, as from the pipeline.
    assert.equal((await http.get('/health', { 'X-Request-Id': 'probe-7' })).headers['x-request-id'], 'probe-7')
    assert.deepEqual(http.reached, ['/health'])
    assert.deepEqual(stableHeaders(fast), withoutCors(viaPipeline))
  })
})
