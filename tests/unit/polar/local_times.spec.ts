import { test } from '@japa/runner'
import fc from 'fast-check'
import { formatWallMs, naiveToWallMs, parseClockKey } from '#services/polar/local_times'

/**
 * The time helpers every sample of a sync goes through are computed by arithmetic; these are the
 * Date- and pattern-based definitions they replaced, which they must equal on every input.
 */
const NAIVE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?$/
const CLOCK_RE = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/

function naiveToWallMsByDate(value: unknown): number | null {
  if (typeof value !== 'string') return null
  const match = NAIVE_RE.exec(value.trim())
  if (!match) return null
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = ''] = match
  const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0)
  if (!Number.isFinite(ms)) return null
  if (new Date(ms).toISOString().slice(0, 10) !== `${y}-${mo}-${d}`) return null
  return ms
}

function formatWallMsByDate(ms: number): string {
  const iso = new Date(Math.floor(ms / 1000) * 1000).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
}

function parseClockKeyByPattern(key: unknown): number | null {
  if (typeof key !== 'string') return null
  const match = CLOCK_RE.exec(key.trim())
  if (!match) return null
  const [, h, m, s = '0'] = match
  if (+h > 23 || +m > 59 || +s > 59) return null
  return +h * 3600 + +m * 60 + +s
}

const digits = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length })
const around = (inner: fc.Arbitrary<string>) =>
  fc.tuple(fc.constantFrom('', ' ', '\t'), inner, fc.constantFrom('', ' ', 'Z', 'x')).map(([a, b, c]) => a + b + c)

test.group('Polar | local time helpers', () => {
  test('naiveToWallMs equals the Date-checked parse on dates, times, fractions and malformed text', ({ assert }) => {
    const naive = fc
      .tuple(
        fc.oneof(digits(4), fc.integer({ min: 1899, max: 2101 }).map(String)),
        fc.integer({ min: 0, max: 19 }),
        fc.integer({ min: 0, max: 39 }),
        fc.option(fc.tuple(fc.constantFrom('T', ' '), digits(2), digits(2), fc.option(fc.tuple(digits(2), fc.option(fc.integer({ min: 1, max: 6 }).chain(digits)))))),
      )
      .map(([y, mo, d, time]) => {
        let text = `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`
        if (time) {
          const [sep, h, mi, rest] = time
          text += `${sep}${h}:${mi}`
          if (rest) text += `:${rest[0]}${rest[1] ? `.${rest[1]}` : ''}`
        }
        return text
      })
    fc.assert(
      fc.property(fc.oneof(around(naive), fc.string(), fc.constantFrom('2024-02-29', '2023-02-29', '1900-02-29', '2000-02-29T23:59:59.999', '0099-12-31', '0100-01-01T24:00')), (value) => {
        assert.strictEqual(naiveToWallMs(value), naiveToWallMsByDate(value), value)
      }),
      { numRuns: 20_000 }
    )
    assert.isNull(naiveToWallMs(42))
  })

  test('formatWallMs equals the ISO text of the whole second, across days, centuries and negative times', ({ assert }) => {
    const ms = fc.oneof(
      fc.integer({ min: -62_198_755_200_000, max: 253_402_300_799_999 }),
      fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 }),
      fc.double({ min: -1e13, max: 1e13, noNaN: true }),
      fc.constantFrom(0, -1, 999, 1000, -1000, -86_400_001, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_001)
    )
    fc.assert(
      fc.property(ms, (value) => {
        assert.strictEqual(formatWallMs(value), formatWallMsByDate(value), String(value))
      }),
      { numRuns: 20_000 }
    )
    for (const outside of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 5000, -8.64e15 - 5000]) {
      assert.throws(() => formatWallMsByDate(outside), RangeError)
      assert.throws(() => formatWallMs(outside), RangeError)
    }
  })

  test('parseClockKey equals the pattern on clock keys, padded, out of range and malformed', ({ assert }) => {
    const clock = fc
      .tuple(fc.oneof(digits(1), digits(2)), digits(2), fc.option(fc.tuple(digits(2), fc.option(digits(3)))))
      .map(([h, m, rest]) => `${h}:${m}${rest ? `:${rest[0]}${rest[1] ? `.${rest[1]}` : ''}` : ''}`)
    fc.assert(
      fc.property(fc.oneof(around(clock), clock, fc.string({ maxLength: 9 })), (key) => {
        assert.strictEqual(parseClockKey(key), parseClockKeyByPattern(key), key)
      }),
      { numRuns: 20_000 }
    )
    assert.isNull(parseClockKey(5))
    assert.equal(parseClockKey('23:59:59'), 86_399)
  })
})
