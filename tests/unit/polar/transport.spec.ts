import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from '@japa/runner'
import { PolarRateLimitError } from '#services/polar/errors/polar_rate_limit_error'
import { PolarUpstreamError } from '#services/polar/errors/polar_upstream_error'
import { PolarTransport } from '#services/polar/transport'

/** A one-route upstream that answers with whatever the current test sets. */
let answer: { status: number; headers?: Record<string, string>; body?: string } = { status: 200 }
let hits = 0

function request(url: string) {
  return { method: 'GET' as const, url, endpoint: 'GET /v3/test', headers: {} }
}

test.group('Polar transport | statuses and headers', (group) => {
  let server: Server
  let url: string
  group.setup(async () => {
    server = createServer((_req, res) => {
      hits++
      res.writeHead(answer.status, answer.headers ?? {})
      res.end(answer.body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3/test`
    return () => new Promise<void>((resolve) => server.close(() => resolve()))
  })
  group.each.setup(() => {
    hits = 0
  })

  test('429 waits for the exhausted window: {$self.name}')
    .with([
      { name: 'short window', usage: '520,100', limit: '520,5100', reset: '30,5000', expected: 30 },
      { name: 'both windows', usage: '520,5100', limit: '520,5100', reset: '30,5000', expected: 5000 },
      { name: 'none reported exhausted', usage: '12,340', limit: '520,5100', reset: '604,52311', expected: 604 },
    ])
    .run(async ({ assert }, row) => {
      answer = { status: 429, headers: { 'RateLimit-Usage': row.usage, 'RateLimit-Limit': row.limit, 'RateLimit-Reset': row.reset } }
      const error = await new PolarTransport().send(request(url)).catch((e) => e)
      assert.instanceOf(error, PolarRateLimitError)
      assert.equal(error.retryAfterSeconds, row.expected)
      assert.equal(hits, 1)
    })

  test('429 falls back to Retry-After, then to 60 seconds', async ({ assert }) => {
    answer = { status: 429, headers: { 'Retry-After': '17' } }
    assert.equal((await new PolarTransport().send(request(url)).catch((e) => e)).retryAfterSeconds, 17)
    answer = { status: 429 }
    assert.equal((await new PolarTransport().send(request(url)).catch((e) => e)).retryAfterSeconds, 60)
  })

  test('refuses locally while the last headers show an exhausted window', async ({ assert }) => {
    answer = { status: 200, headers: { 'RateLimit-Usage': '520,900', 'RateLimit-Limit': '520,5100', 'RateLimit-Reset': '300,9000' }, body: '[]' }
    const transport = new PolarTransport()
    await transport.send(request(url))
    assert.deepEqual(transport.rateLimit!.usage, [520, 900])
    const error = await transport.send(request(url)).catch((e) => e)
    assert.instanceOf(error, PolarRateLimitError)
    assert.closeTo(error.retryAfterSeconds, 300, 2)
    assert.equal(hits, 1)
    assert.equal(transport.callCount, 1)
  })

  test('names the endpoint and quotes Polar\'s message on a 4xx, without retrying', async ({ assert }) => {
    answer = { status: 400, body: JSON.stringify({ status: 400, errorType: 'BAD_REQUEST', message: 'Invalid or too old date', corrId: 'x' }) }
    const error = await new PolarTransport({ retryDelayMs: 1 }).send(request(url)).catch((e) => e)
    assert.instanceOf(error, PolarUpstreamError)
    assert.equal(error.message, 'Polar answered 400 on GET /v3/test: Invalid or too old date')
    assert.equal(hits, 1)
  })

  test('does not quote an HTML error page', async ({ assert }) => {
    answer = { status: 502, body: '<html><body>Bad gateway</body></html>' }
    const error = await new PolarTransport({ retryDelayMs: 1 }).send(request(url)).catch((e) => e)
    assert.equal(error.message, 'Polar answered 502 on GET /v3/test')
    assert.equal(hits, 2)
  })

  test('retries a network failure once and reports it', async ({ assert }) => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const transport = new PolarTransport({ retryDelayMs: 1 })
    const error = await transport.send(request(`http://127.0.0.1:${port}/v3/test`)).catch((e) => e)
    assert.instanceOf(error, PolarUpstreamError)
    assert.equal(error.reason, 'network')
    assert.isNull(error.providerStatus)
    assert.equal(transport.callCount, 2)
  })

  test('treats 204 and an empty body as no data', async ({ assert }) => {
    answer = { status: 204 }
    assert.deepEqual(await new PolarTransport().send(request(url)), { status: 204, data: null })
    answer = { status: 200, body: '' }
    assert.deepEqual(await new PolarTransport().send(request(url)), { status: 200, data: null })
  })

  test('beforeRequest admits every attempt and may hold a call back; onRateLimit sees each answer', async ({ assert }) => {
    answer = { status: 429, headers: { 'RateLimit-Usage': '7,70', 'RateLimit-Limit': '520,5100', 'RateLimit-Reset': '30,5000' } }
    const admitted: string[] = []
    const seen: Array<[number, number[]]> = []
    const transport = new PolarTransport({
      beforeRequest: async (endpoint) => {
        admitted.push(endpoint)
      },
      onRateLimit: async (state, status) => {
        seen.push([status, state.usage])
      },
    })
    assert.instanceOf(await transport.send(request(url)).catch((e) => e), PolarRateLimitError)
    assert.deepEqual(admitted, ['GET /v3/test'])
    assert.deepEqual(seen, [[429, [7, 70]]])

    const held = new PolarTransport({
      beforeRequest: async () => {
        throw new PolarRateLimitError('GET /v3/test', 5)
      },
    })
    assert.instanceOf(await held.send(request(url)).catch((e) => e), PolarRateLimitError)
    assert.equal(held.callCount, 0)
    assert.equal(hits, 1)
  })
})
