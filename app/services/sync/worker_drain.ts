import { Worker } from '@adonisjs/queue'

/**
 * Longest wait for running jobs when the process is told to stop. Below Kubernetes' default grace
 * period (30 s); Docker's default (10 s) kills the process earlier, and a killed worker's job is
 * recovered as stalled by another worker.
 */
export const WORKER_DRAIN_TIMEOUT_MS = 25_000

interface StartedWorker {
  worker: Worker
  /** Settles when the worker's processing loop has ended (no more jobs are taken). */
  loop: Promise<void>
}

const started = new Set<StartedWorker>()
let tracking = false

/**
 * Makes every queue Worker started in this process known to `drainQueueWorkers`, including the one
 * `node ace queue:work` (@adonisjs/queue) creates and keeps to itself: `Worker.prototype.start` is
 * wrapped once to note the instance and its loop. Idempotent.
 */
export function trackQueueWorkers() {
  if (tracking) return
  tracking = true
  const start = Worker.prototype.start
  Worker.prototype.start = function (this: Worker, ...args: Parameters<Worker['start']>) {
    const loop = start.apply(this, args)
    started.add({ worker: this, loop: loop.then(() => {}, () => {}) })
    return loop
  }
}

/**
 * Stops every tracked worker and waits until the jobs they were running have finished (completed,
 * failed on their own, or scheduled for retry), at most `timeoutMs`. A job taken while the stop
 * was under way is waited for too: the pool is drained again once the loop has ended. Resolves
 * true when nothing is running any more, false on timeout (the jobs are still running).
 */
export async function drainQueueWorkers(timeoutMs = WORKER_DRAIN_TIMEOUT_MS): Promise<boolean> {
  const workers = [...started]
  if (workers.length === 0) return true
  const drained = Promise.all(
    workers.map(async (entry) => {
      await entry.worker.stop()
      await entry.loop
      await entry.worker.stop()
      started.delete(entry)
    })
  ).then(() => true)
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs)
  })
  try {
    return await Promise.race([drained, timeout])
  } finally {
    clearTimeout(timer)
  }
}
