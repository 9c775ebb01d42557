import { test } from '@japa/runner'
import { ProgressWriter } from '#services/sync/sync_progress'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A writer over a counter: each write records the state it saw. */
function recorder(intervalMs: number) {
  const state = { phase: 'listing' }
  const writes: string[] = []
  const writer = new ProgressWriter(async () => {
    await sleep(5)
    writes.push(state.phase)
  }, intervalMs)
  return { state, writes, writer }
}

test.group('Sync | progress writer', () => {
  test('the first change is written at once, later ones inside the interval once it ends, with the latest state', async ({ assert }) => {
    const { state, writes, writer } = recorder(100)
    writer.changed()
    state.phase = 'details'
    writer.changed()
    state.phase = 'storing'
    writer.changed()
    await sleep(30)
    assert.deepEqual(writes, ['storing'], 'the immediate write reads the state when it runs')
    state.phase = 'listing'
    writer.changed()
    await sleep(150)
    assert.deepEqual(writes, ['storing', 'listing'], 'the trailing write shows the newest phase')
    await writer.close()
  })

  test('flush writes now and resolves once written; close waits and stops every later write', async ({ assert }) => {
    const { state, writes, writer } = recorder(1000)
    writer.changed()
    await sleep(30)
    state.phase = 'analytics'
    await writer.flush()
    assert.deepEqual(writes, ['listing', 'analytics'])
    state.phase = 'storing'
    writer.changed()
    await writer.close()
    writer.changed()
    await writer.flush()
    await sleep(50)
    assert.deepEqual(writes, ['listing', 'analytics'], 'nothing after close')
  })

  test('a failed write is logged, not thrown, and later writes still run', async ({ assert }) => {
    let calls = 0
    const writer = new ProgressWriter(async () => {
      calls++
      if (calls === 1) throw new Error('database gone')
    }, 0)
    await writer.flush()
    await writer.flush()
    await writer.close()
    assert.equal(calls, 2)
  })
})
