/** A caller's part of a coalesced call: the shared result, its place in the batch and the batch size. */
export interface Share<R> {
  result: R
  index: number
  count: number
}

interface Waiter<R> {
  resolve: (share: Share<R>) => void
  reject: (error: unknown) => void
}

/**
 * Coalesces concurrent calls with the same key into one, without ever answering from a call that
 * started before the caller arrived: while a call for a key is running, new callers wait and go
 * together in the next one, which starts when it ends. So under load one round trip serves every
 * request that arrived during the previous one, and each answer is still as fresh as a call of its
 * own. `run` gets the batch size (e.g. how many requests to count).
 */
export class CoalescedCalls<K, R> {
  #batches = new Map<K, { running: boolean; waiting: Waiter<R>[] }>()

  constructor(protected run: (key: K, count: number) => Promise<R>) {}

  call(key: K): Promise<Share<R>> {
    let batch = this.#batches.get(key)
    if (!batch) this.#batches.set(key, (batch = { running: false, waiting: [] }))
    const joined = new Promise<Share<R>>((resolve, reject) => batch.waiting.push({ resolve, reject }))
    if (!batch.running) this.#next(key, batch)
    return joined
  }

  #next(key: K, batch: { running: boolean; waiting: Waiter<R>[] }) {
    const waiters = batch.waiting
    if (waiters.length === 0) {
      this.#batches.delete(key)
      return
    }
    batch.waiting = []
    batch.running = true
    const settle = (each: (waiter: Waiter<R>, index: number) => void) => {
      waiters.forEach(each)
      batch.running = false
      this.#next(key, batch)
    }
    new Promise<R>((resolve) => resolve(this.run(key, waiters.length))).then(
      (result) => settle((w, index) => w.resolve({ result, index, count: waiters.length })),
      (error) => settle((w) => w.reject(error))
    )
  }
}
