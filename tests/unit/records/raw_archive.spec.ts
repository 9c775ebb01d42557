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
