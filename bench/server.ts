/*
|--------------------------------------------------------------------------
| Benchmark HTTP server
|--------------------------------------------------------------------------
|
| The production entrypoint (bin/server.ts, which `npm start` runs compiled)
| plus two extra routes:
| `GET /api/__bench/bare`, a bare JSON answer that goes through the same server
| and router middleware as the API routes (as an `/api` path: no session,
| no CSRF) but does no work, and `GET /api/__bench/authenticated`, the same
| behind the API key check and the rate limiter of the data routes. The HTTP
| benchmark compares each data endpoint with both; `GET /__bench/memory` reports
| process.memoryUsage(). Never used outside bench/.
|
*/
import 'reflect-metadata'
import { Ignitor, prettyPrintError } from '@adonisjs/core'
import { createHttpServer } from '#services/http_server'
import { APP_ROOT, IMPORTER } from '../bin/app_root.js'

new Ignitor(APP_ROOT, { importer: IMPORTER })
  .tap((app) => {
    app.booting(async () => {
      await import('#start/env')
    })
    app.starting(async () => {
      const { default: router } = await import('@adonisjs/core/services/router')
      const { middleware } = await import('#start/kernel')
      const bare = () => ({ ok: true, service: 'hrvault', time: new Date().toISOString() })
      router.get('/api/__bench/bare', bare)
      // The same answer behind the API key check and the rate limiter every data route pays for.
      router.get('/api/__bench/authenticated', bare).use([middleware.apiKey(), middleware.apiRateLimit()])
      router.get('/__bench/memory', () => process.memoryUsage())
      // The process's monotonic clock in µs: the time base of a --cpu-prof profile's samples, so
      // bench/profile.ts keeps only the samples of its load window.
      router.get('/__bench/clock', () => ({ us: Number(process.hrtime.bigint() / 1000n) }))
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
        const { ClockService } = await import('#services/clock_service')
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
        app.container.swap(ApiKeyService, async (resolver) => new CachedApiKeyService(await resolver.make(ClockService)))
      }
    })
    app.listen('SIGTERM', () => app.terminate())
    app.listen('SIGINT', () => app.terminate())
    // Immediate exit (writes a --cpu-prof profile when one is being taken).
    process.once('SIGUSR2', () => process.exit(0))
  })
  .httpServer()
  // The node:http server bin/server.ts creates.
  .start(createHttpServer)
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
