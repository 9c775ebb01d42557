import { createHash } from 'node:crypto'
import { test } from '@japa/runner'
import fc from 'fast-check'
import RawPayload from '#models/raw_payload'
import { canonicalJson, contentHashOf, naturalKeyText } from '#services/records/raw_archive_service'
import { dataType } from '#services/records/data_types'

test.group('Records | raw archive encoding', () => {
  test('canonical JSON sorts keys at every level and keeps array order', ({ assert }) => {
    const a = { b: 1, a: { d: [3, { z: 1, y: null }], c: 'x' } }
    const b = { a: { c: 'x', d: [3, { y: null, z: 1 }] }, b: 1 }
    assert.equal(canonicalJson(a), '{"a":{"c":"x","d":[3,{"y":null,"z":1}]},"b":1}')
    assert.equal(canonicalJson(a), canonicalJson(b))
    assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]))
    assert.equal(contentHashOf(canonicalJson(a)), createHash('sha256').update(canonicalJson(b)).digest('hex'))
  })

  test('canonical JSON is byte for byte the text the stored content hashes were made from', ({ assert }) => {
    // The first definition: JSON.stringify with a replacer rebuilding each object with its keys sorted.
    const reference = (value: unknown) =>
      JSON.stringify(value, (_key, inner: unknown) => {
        if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner
        const sorted: Record<string, unknown> = {}
        for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key]
        return sorted
      })
    // Integer-like keys (any object orders them first), unicode, escapes, nesting, -0 and floats.
    const key = fc.oneof(fc.string(), fc.nat({ max: 30 }).map(String), fc.constantFrom('10', '9', '01', '-1', '1.5', '__proto__', 'a"b', 'é'))
    const value = fc.letrec((tie) => ({
      json: fc.oneof({ depthSize: 'small' }, fc.jsonValue(), tie('object'), tie('array'), fc.double({ noNaN: true, noDefaultInfinity: true })),
      object: fc.dictionary(key, tie('json'), { maxKeys: 8 }),
      array: fc.array(tie('json'), { maxLength: 8 }),
    })).json
    fc.assert(
      fc.property(value, (v) => {
        assert.equal(canonicalJson(v), reference(v))
      }),
      { numRuns: 2000 }
    )
    const detail = {
      samples: [{ 'recording-rate': 1, 'sample-type': '0', 'data': '60,61,null' }],
      route: [{ latitude: 1.5, longitude: -0.25, time: 'PT1S' }],
      3: 'x',
      1: [1, { b: 2, a: [3] }],
    }
    assert.equal(canonicalJson(detail), reference(detail))
    assert.equal(canonicalJson({ 10: 'a', 9: 'b', x: null }), '{"9":"b","10":"a","x":null}')
    // The value given is never changed.
    const given = { b: [{ d: 1, c: 2 }], a: 1 }
    canonicalJson(given)
    assert.deepEqual(Object.keys(given), ['b', 'a'])
    assert.deepEqual(Object.keys(given.b[0]), ['d', 'c'])
  })

  test('a payload decodes to the canonical JSON it was encoded from', ({ assert }) => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value)
        assert.equal(RawPayload.decode(RawPayload.encode(text)), text)
      }),
      { numRuns: 200 }
    )
  })

  test('natural-key text joins the key attributes of a row', ({ assert }) => {
    assert.equal(naturalKeyText(dataType('sleep'), { date: '2026-03-15', sleepScore: 80 }), '2026-03-15')
    assert.equal(
      naturalKeyText(dataType('body_temperature'), { startTime: '2026-03-15 01:00:00', measurementType: 'TM_SKIN_TEMPERATURE' }),
      '2026-03-15 01:00:00|TM_SKIN_TEMPERATURE'
    )
  })
})
