import { test } from '@japa/runner'
import { CoalescedCalls } from '#services/coalesced_calls'

/** A run the test finishes by hand, recording the order in which runs started. */
function manualRuns(inFlight = 1) {
  const started: Array<{ key: string; count: number; finish: (value: string) => void; fail: (error: Error) => void }> = []
  const calls = new CoalescedCalls<string, string>(
    (key, count) =>
      new Promise<string>((resolve, reject) => {
        started.push({ key, count, finish: resolve, fail: reject })
      }),
    inFlight
  )
  return { calls, started }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

test.group('CoalescedCalls', () => {
  test('callers of one turn share one run, each with its own place in the batch', async ({ assert }) => {
    const { calls, started } = manualRuns()
    const shares = [calls.call('a'), calls.call('a'), calls.call('a')]
    await turn()
    assert.lengthOf(started, 1)
    assert.equal(started[0].count, 3)
    started[0].finish('first')
    const results = await Promise.all(shares)
    assert.deepEqual(
      results.map((share) => [share.result, share.index, share.count]),
      [
        ['first', 0, 3],
        ['first', 1, 3],
        ['first', 2, 3],
      ]
    )
  })

  test('a caller arriving while a run is on its way gets the next run, never the one that started before it', async ({
    assert,
  }) => {
    const { calls, started } = manualRuns()
    const early = calls.call('a')
    await turn()
    const late = [calls.call('a'), calls.call('a')]
    await turn()
    assert.lengthOf(started, 1, 'the late callers wait for the running call to end')
    started[0].finish('before')
    assert.equal((await early).result, 'before')
    await turn()
    assert.lengthOf(started, 2)
    assert.equal(started[1].count, 2)
    started[1].finish('after')
    assert.deepEqual(
      (await Promise.all(late)).map((share) => share.result),
      ['after', 'after']
    )
  })

  test('a failed run rejects its own callers only; the next batch runs', async ({ assert }) => {
    const { calls, started } = manualRuns()
    const failing = calls.call('a')
    await turn()
    const next = calls.call('a')
    started[0].fail(new Error('down'))
    await assert.rejects(() => failing, 'down')
    await turn()
    started[1].finish('up again')
    assert.equal((await next).result, 'up again')
  })

  test('a caller arriving just after a run ended goes in the next run, alone', async ({ assert }) => {
    const { calls, started } = manualRuns()
    const first = calls.call('a')
    await turn()
    started[0].finish('one')
    await first
    // The run has settled; the next one is scheduled but not started yet.
    const second = calls.call('a')
    await turn()
    assert.lengthOf(started, 2)
    assert.equal(started[1].count, 1)
    started[1].finish('two')
    assert.deepEqual(await second, { result: 'two', index: 0, count: 1 })
  })

  test('a run that throws at once rejects its callers, and the key keeps working', async ({ assert }) => {
    let throwing = true
    const calls = new CoalescedCalls<string, number>((_key, count) => {
      // Throws before returning a promise, as a driver call can.
      if (throwing) throw new Error('no connection')
      return Promise.resolve(count)
    })
    const failed = [calls.call('a'), calls.call('a')]
    for (const share of failed) await assert.rejects(() => share, 'no connection')
    throwing = false
    assert.equal((await calls.call('a')).result, 1)
  })

  test('keys run apart, and a key with nobody waiting starts afresh', async ({ assert }) => {
    const { calls, started } = manualRuns()
    const a = calls.call('a')
    const b = calls.call('b')
    await turn()
    assert.deepEqual(
      started.map((run) => run.key),
      ['a', 'b']
    )
    started[0].finish('A')
    started[1].finish('B')
    assert.equal((await a).result, 'A')
    assert.equal((await b).result, 'B')
    await turn()
    const again = calls.call('a')
    await turn()
    assert.lengthOf(started, 3)
    assert.equal(started[2].count, 1)
    started[2].finish('A2')
    assert.equal((await again).result, 'A2')
  })

  test('with two in flight, callers arriving during a run go at once; a third batch waits for the first to end', async ({
    assert,
  }) => {
    const { calls, started } = manualRuns(2)
    const first = calls.call('a')
    await turn()
    const second = [calls.call('a'), calls.call('a')]
    await turn()
    await turn()
    assert.lengthOf(started, 2, 'the second batch does not wait for the first')
    assert.equal(started[1].count, 2)
    const third = calls.call('a')
    await turn()
    assert.lengthOf(started, 2, 'two are on the way: the third batch waits')
    // The second run finishes first: its callers get its own result, the first's keep waiting.
    started[1].finish('second')
    assert.deepEqual(
      (await Promise.all(second)).map((share) => [share.result, share.index, share.count]),
      [
        ['second', 0, 2],
        ['second', 1, 2],
      ]
    )
    // The first is still on the way, so the waiting batch takes one more turn.
    await turn()
    await turn()
    assert.lengthOf(started, 3, 'a run ended: the waiting batch starts')
    assert.equal(started[2].count, 1)
    started[0].finish('first')
    started[2].finish('third')
    assert.equal((await first).result, 'first')
    assert.equal((await third).result, 'third')
    await turn()
    const again = calls.call('a')
    await turn()
    assert.lengthOf(started, 4, 'the key starts afresh once nothing runs')
    started[3].finish('again')
    assert.equal((await again).result, 'again')
  })

  test('while a call is on the way the next batch waits one more turn and carries the callers of both', async ({
    assert,
  }) => {
    const { calls, started } = manualRuns(2)
    const first = calls.call('a')
    await turn()
    assert.lengthOf(started, 1, 'a caller alone starts at the first turn')
    const second = calls.call('a')
    await turn()
    assert.lengthOf(started, 1, 'a call is on the way: the next batch is still gathering')
    const third = calls.call('a')
    await turn()
    assert.lengthOf(started, 2)
    assert.equal(started[1].count, 2, 'the callers of two turns go in one run')
    started[0].finish('one')
    started[1].finish('two')
    assert.equal((await first).result, 'one')
    assert.deepEqual(
      [await second, await third].map((share) => [share.result, share.index, share.count]),
      [
        ['two', 0, 2],
        ['two', 1, 2],
      ]
    )
  })
})
