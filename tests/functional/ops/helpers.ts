import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { Job, Locator, Worker } from '@adonisjs/queue'
import { OPS_SCOPES } from '#services/ops/ops_tokens'

/** One token per scope, one wildcard token, one token without scopes. */
export const TOKENS = {
  ...Object.fromEntries(OPS_SCOPES.map((scope) => [scope, `test-${scope.replace(':', '-')}-token-0123456789abcdef`])),
  '*': 'test-wildcard-token-0123456789abcdef',
  none: 'test-no-scope-token-0123456789abcdef',
  burst: 'test-burst-console-token-0123456789abcdef',
} as Record<string, string>

/** Installs the test tokens through OPS_TOKENS (the middleware re-reads it on change). */
export function useTestTokens() {
  const previous = { tokens: env.get('OPS_TOKENS'), token: env.get('OPS_TOKEN') }
  const map: Record<string, unknown> = {}
  for (const scope of OPS_SCOPES) map[TOKENS[scope]] = [scope]
  map[TOKENS['*']] = { scopes: ['*'], name: 'wildcard test token' }
  map[TOKENS.none] = []
  map[TOKENS.burst] = ['console:execute']
  env.set('OPS_TOKENS', JSON.stringify(map))
  env.set('OPS_TOKEN', '')
  return () => {
    env.set('OPS_TOKENS', previous.tokens ?? '')
    env.set('OPS_TOKEN', previous.token ?? '')
  }
}

export const bearer = (scope: string) => `Bearer ${TOKENS[scope]}`

/**
 * A queue job used to exercise failure and retry on the real backend: it fails while
 * `failuresLeft` has a positive count for its key, then succeeds and records the key.
 */
export class OpsProbeJob extends Job<{ key: string }> {
  static options = { name: 'OpsProbeJob', queue: 'default', maxRetries: 0 }
  static failuresLeft = new Map<string, number>()
  static completed: string[] = []

  async execute() {
    const key = this.payload.key
    const left = OpsProbeJob.failuresLeft.get(key) ?? 0
    if (left > 0) {
      OpsProbeJob.failuresLeft.set(key, left - 1)
      throw new Error(`probe ${key} failed on purpose`)
    }
    OpsProbeJob.completed.push(key)
  }
}
Locator.register('OpsProbeJob', OpsProbeJob)

/** The queue configuration with its adapters resolved, as the queue provider builds it. */
async function resolvedQueueConfig() {
  const config = app.config.get<any>('queue')
  const adapters: Record<string, unknown> = {}
  for (const [name, adapter] of Object.entries<any>(config.adapters)) {
    adapters[name] = typeof adapter === 'function' ? adapter : await adapter.resolver(app)
  }
  return {
    ...config,
    adapters,
    autoLoadJobs: false,
    jobFactory: (JobClass: any) => app.container.make(JobClass),
    logger: await app.container.make('logger'),
  }
}

/**
 * Re-initialises the queue manager with freshly resolved adapters, as at boot. Other test files
 * close and reopen the database connection, which leaves an adapter created earlier holding a
 * destroyed connection pool.
 */
export async function refreshQueueManager() {
  const manager = await app.container.make('queue.manager')
  await manager.init(await resolvedQueueConfig())
}

/**
 * Processes the queue like `node ace queue:work` until it is idle: a real worker on the configured
 * backend (database or Redis), in this process.
 */
export async function drainQueue(queues = ['default']) {
  const config = await resolvedQueueConfig()
  const worker = new Worker({
    ...config,
    worker: { ...config.worker, concurrency: 1, idleDelay: '10ms', gracefulShutdown: false },
  } as any)
  let started = 0
  let finished = 0
  try {
    for (let cycle = 0; cycle < 200; cycle++) {
      const result = await worker.processCycle(queues)
      if (!result) break
      if (result.type === 'started') started++
      if (result.type === 'completed') finished++
      if (result.type === 'idle' && finished >= started) break
    }
  } finally {
    await worker.stop()
  }
  return { started, finished }
}

/** Polls `probe` until it returns a truthy value (asynchronous side effects), at most ~5 s. */
export async function eventually<T>(probe: () => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await probe()
    if (value) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return probe()
}
