import { test } from '@japa/runner'
import fc from 'fast-check'
import { hoursFromSeconds, roundTo, toInteger } from '#services/records/units'

/** The plain definition: every product through toPrecision(15), then half away from zero. */
function reference(value: number, digits: number): number {
  const factor = 10 ** digits
  const rounded = Math.round(Number((Math.abs(value) * factor).toPrecision(15))) / factor
  return rounded === 0 ? 0 : Math.sign(value) * rounded
}

test.group('Records | rounding', () => {
  test('half away from zero without binary drift', ({ assert }) => {
    assert.equal(roundTo(1.005, 2), 1.01)
    assert.equal(roundTo(-1.005, 2), -1.01)
    assert.equal(roundTo(2.675, 2), 2.68)
    assert.equal(roundTo(0.5, 0), 1)
    assert.equal(roundTo(-0.5, 0), -1)
    assert.equal(roundTo(1.45, 1), 1.5)
    assert.equal(roundTo(8.345, 2), 8.35)
    assert.equal(hoursFromSeconds(30_600), 8.5)
    assert.equal(hoursFromSeconds(7_398), 2.06)
    assert.equal(toInteger(57.5), 58)
    assert.equal(toInteger(57), 57)
  })

  test('null, non-finite and negative zero', ({ assert }) => {
    assert.isNull(roundTo(null, 2))
    assert.isNull(roundTo(Number.NaN, 2))
    assert.isNull(roundTo(Number.POSITIVE_INFINITY, 0))
    assert.isTrue(Object.is(roundTo(-0, 2), 0))
    assert.isTrue(Object.is(roundTo(-0.001, 2), 0))
  })

  test('agrees with the plain definition on any value, halves included', ({ assert }) => {
    const digits = fc.integer({ min: 0, max: 3 })
    const anyValue = fc.double({ min: -1e6, max: 1e6, noNaN: true })
    // Values that sit on a half at some precision: n + 0.5, n.x5, n.xx5 (the cases drift breaks).
    const halves = fc
      .tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 0, max: 3 }))
      .map(([n, shift]) => (n + 0.5) / 10 ** shift)
    fc.assert(
      fc.property(fc.oneof(anyValue, halves), digits, (value, d) => {
        assert.isTrue(Object.is(roundTo(value, d), reference(value, d)), `${value} to ${d}`)
      }),
      { numRuns: 20_000 }
    )
  })
})
