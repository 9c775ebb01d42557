import { test } from '@japa/runner'
import vine from '@vinejs/vine'
import { isoDateRule } from '#validators/rules'

const validator = vine.create({ date: isoDateRule() })

test.group('Validators | isoDateRule', () => {
  test('accepts real calendar date {$self}')
    .with(['2026-02-28', '2024-02-29', '2026-12-31'])
    .run(async ({ assert }, date) => {
      assert.deepEqual(await validator.validate({ date }), { date })
    })

  test('rejects {$self}')
    .with(['2026-02-30', '2025-02-29', '2026-13-01', '2026-1-01', 'yesterday', '2026-04-31'])
    .run(async ({ assert }, date) => {
      await assert.rejects(() => validator.validate({ date }))
    })
})
