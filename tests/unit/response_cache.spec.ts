import { test } from '@japa/runner'
import { gunzipSync } from 'node:zlib'
import { ResponseCache, acceptsGzip } from '#services/response_cache'

/** A JSON array of `bytes` bytes (padded with spaces inside it) that compresses as the data answers do. */
function jsonBody(bytes: number): Buffer {
  const items: string[] = []
  for (let i = 0; items.join(',').length < bytes - 40; i++) items.push(JSON.stringify({ date: `2026-01-${(i % 28) + 1}`, score: 60 + (i % 30) }))
  const text = `[${items.join(',')}]`
  return Buffer.from(`${text.slice(0, -1)}${' '.repeat(Math.max(0, bytes - text.length))}]`)
}

test.group('ResponseCache | gzip representation', () => {
  test('Accept-Encoding: gzip preferred to the identity, q-values honoured', ({ assert }) => {
    for (const header of ['gzip', 'gzip, deflate, br', 'br;q=1, gzip;q=0.5', '*', 'GZIP']) assert.isTrue(acceptsGzip(header), header)
    for (const header of [undefined, '', 'br', 'deflate', 'gzip;q=0', 'identity', 'identity, gzip;q=0.5', '*;q=0']) assert.isFalse(acceptsGzip(header), String(header))
    assert.isTrue(acceptsGzip(['deflate', 'gzip']))
  })

  test('a held answer is compressed once and kept with the entry, with its own ETag', ({ assert }) => {
    const cache = new ResponseCache(1_000_000)
    const body = jsonBody(20_000)
    const entry = cache.set('k', body, { 'content-type': 'application/json' })
    assert.strictEqual(cache.representation('k', entry, undefined), entry)
    const gzip = cache.representation('k', entry, 'gzip')
    assert.equal(gzip.encoding, 'gzip')
    assert.deepEqual(gunzipSync(gzip.body), body)
    assert.notEqual(gzip.etag, entry.etag)
    assert.match(gzip.etag, /^"[^"]+-gzip"$/)
    // Kept: the next request gets the same bytes, and the held entry now carries them.
    const held = cache.get('k')!
    assert.strictEqual(held.gzip, gzip)
    assert.strictEqual(cache.representation('k', held, 'gzip, br'), gzip)
  })

  test('small bodies, bodies that do not compress and variants beyond the entry limit stay identity', ({ assert }) => {
    const cache = new ResponseCache(80_000, 10_000)
    const small = cache.set('small', Buffer.from('{"a":1}'), {})
    assert.strictEqual(cache.representation('small', small, 'gzip'), small, 'small')
    const random = Buffer.from(Array.from({ length: 4000 }, () => Math.floor(Math.random() * 256)))
    const noise = cache.set('noise', random, {})
    assert.strictEqual(cache.representation('noise', noise, 'gzip'), noise, 'incompressible')
    // A body just under the entry limit: its compressed copy would not fit beside it.
    const large = cache.set('large', jsonBody(9_500), {})
    assert.lengthOf(large.body, 9_500)
    assert.isTrue(cache.has('large'))
    assert.strictEqual(cache.representation('large', large, 'gzip'), large, 'beyond the entry limit')
    assert.isNull(large.gzip)
    // One that fits with it gets it.
    const fits = cache.set('fits', jsonBody(6_000), {})
    assert.equal(cache.representation('fits', fits, 'gzip').encoding, 'gzip')
    assert.isTrue(cache.has('fits'))
  })

  test('with the cache off nothing is held, and nothing is compressed', ({ assert }) => {
    const cache = new ResponseCache(0)
    const entry = cache.set('k', jsonBody(20_000), {})
    assert.isFalse(cache.enabled)
    assert.isFalse(cache.has('k'))
    assert.strictEqual(cache.representation('k', entry, 'gzip'), entry)
  })
})
