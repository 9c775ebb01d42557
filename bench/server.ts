/*
|--------------------------------------------------------------------------
| Benchmark HTTP server
|--------------------------------------------------------------------------
|
| The production entrypoint (bin/server.ts) plus one extra route,
| `GET /__bench/bare`, a bare JSON answer that goes through the same server
| and router middleware as every other route but does no work. The HTTP
| benchmark compares each data endpoint with it; `GET /__bench/memory` reports
| process.memoryUsage(). Never used outside bench/.
|
*/
import 'reflect-metadata'
import { Ignitor, prettyPrintError } from '@adonisjs/core'
import { APP_ROOT, IMPORTER } from '../bin/app_root.js'

new Ignitor(APP_ROOT, { importer: IMPORTER })
  .tap((app) => {
    app.booting(async () => {
      await import('#start/env')
    })
    app.starting(async () => {
      const { default: router } = await import('@adonisjs/core/services/router')
      router.get('/__bench/bare', () => ({ ok: true, service: 'hrvault', time: new Date().toISOString() }))
      router.get('/__bench/memory', () => process.memoryUsage())
    })
    // Experiment switch: SQLite with synchronous=NORMAL (WAL stays crash-safe, last commits may be lost on power loss).
    app.ready(async () => {
      if (process.env.BENCH_SQLITE_SYNCHRONOUS && process.env.DB_CONNECTION !== 'pg') {
        const { default: db } = await import('@adonisjs/lucid/services/db')
        await db.rawQuery(`PRAGMA synchronous = ${process.env.BENCH_SQLITE_SYNCHRONOUS}`)
      }
    })
    // Experiment switches (BENCH_EXPERIMENT=no-rate-limit,cached-key) measuring the fixed cost of
    // the API middleware; never part of a recorded run unless the results say so.
    app.booted(async () => {
      const experiments = new Set((process.env.BENCH_EXPERIMENT ?? '').split(',').filter(Boolean))
      if (experiments.has('no-rate-limit')) {
        const { RateLimitService } = await import('#services/rate_limit_service')
        app.container.swap(RateLimitService, () => ({ hit: async () => ({}) }) as never)
      }
      if (experiments.has('cached-key')) {
        const { ApiKeyService } = await import('#services/auth/api_key_service')
        const cache = new Map<string, Awaited<ReturnType<InstanceType<typeof ApiKeyService>['authenticate']>>>()
        class CachedApiKeyService extends ApiKeyService {
          async authenticate(plain: string) {
            const hit = cache.get(plain)
            if (hit) return hit
            const identity = await super.authenticate(plain)
            cache.set(plain, identity)
            return identity
          }
        }
        app.container.swap(ApiKeyService, () => new CachedApiKeyService())
      }
    })
    app.listen('SIGTERM', () => app.terminate())
    app.listen('SIGINT', () => app.terminate())
    // Immediate exit (writes a --cpu-prof profile when one is being taken).
    process.once('SIGUSR2', () => process.exit(0))
  })
  .httpServer()
  .start()
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
