/** A caller's part of a coalesced call: the shared result, its place in the batch and the batch size. */
export interface Share<R> {
  result: R
  index: number
  count: number
}

interface Batch<R> {
  running: number
  scheduled: boolean
  waiting: Waiter<R>[]
}

interface Waiter<R> {
  resolve: (share: Share<R>) => void
  reject: (error: unknown) => void
}

/**
 * Coalesces concurrent calls with the same key into one, without ever answering from a call that
 * started before the caller arrived: callers wait and go together in the next call, which starts
 * once the event loop has read the rest of its turn's I/O (one more turn while another call of
 * the key runs), and while `inFlight` calls for a key are running it is the one after the first
 * of them to finish. So under load one round trip serves
 * every request that arrived while it was waiting, and each answer is still as fresh as a call of
 * its own. `run` gets the batch size (e.g. how many requests to count).
 */
export class CoalescedCalls<K, R> {
  #batches = new Map<K, Batch<R>>()

  /**
   * `inFlight`: how many calls of one key may run at once. Each still starts after its callers
   * arrived; with two, the requests that arrive during a round trip go out without waiting for it
   * (a turn later, see `#schedule`; PostgreSQL + Redis cached answers: +6–10 % at 16 connections,
   * profile note "Sixteenth look").
   */
  constructor(
    protected run: (key: K, count: number) => Promise<R>,
    protected inFlight = 1
  ) {}

  call(key: K): Promise<Share<R>> {
    let batch = this.#batches.get(key)
    if (!batch) this.#batches.set(key, (batch = { running: 0, scheduled: false, waiting: [] }))
    const joined = new Promise<Share<R>>((resolve, reject) => batch.waiting.push({ resolve, reject }))
    if (!batch.scheduled && batch.running < this.inFlight) this.#schedule(key, batch)
    return joined
  }

  /**
   * The next call starts once the event loop has read what arrived with this caller (setImmediate
   * runs after the loop's I/O callbacks): requests read from other sockets in the same turn join it
   * instead of waiting a whole round trip for the one after. While another call of the key is on
   * the way (the key is under load) it waits one turn more: requests then arrive spread over
   * successive turns, and the extra turn lets one round trip carry those of two turns (PostgreSQL +
   * Redis cached answers at 16 connections: +6–11 % for the 61 kB year of sleep, whose batches were
   * half the size of the small answers', profile note "Twenty-fifth look"). A caller alone (nothing
   * on the way) starts at the first turn and pays nothing.
   */
  #schedule(key: K, batch: Batch<R>) {
    batch.scheduled = true
    if (batch.running > 0) setImmediate(() => setImmediate(() => this.#next(key, batch)))
    else setImmediate(() => this.#next(key, batch))
  }

  #next(key: K, batch: Batch<R>) {
    batch.scheduled = false
    const waiters = batch.waiting
    if (waiters.length === 0) {
      if (batch.running === 0) this.#batches.delete(key)
      return
    }
    batch.waiting = []
    batch.running++
    const settle = (each: (waiter: Waiter<R>, index: number) => void) => {
      batch.running--
      waiters.forEach(each)
      if (!batch.scheduled) this.#schedule(key, batch)
    }
    new Promise<R>((resolve) => resolve(this.run(key, waiters.length))).then(
      (result) => settle((w, index) => w.resolve({ result, index, count: waiters.length })),
      (error) => settle((w) => w.reject(error))
    )
  }
}

/**
 * `compute`'s value shared by every call in one event-loop turn and computed again in the next
 * (after the turn's setImmediate callbacks): what requests read in the same turn would each look up
 * the same way (a container resolution, environment variables) is looked up once for all of them,
 * and a change made between turns (a test swapping a service or setting a variable) is seen by the
 * next request.
 */
export function perTurn<T>(compute: () => T): () => T {
  let value: T
  let current = false
  return () => {
    if (!current) {
      value = compute()
      current = true
      setImmediate(() => (current = false))
    }
    return value
  }
}
