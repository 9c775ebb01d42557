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

const APP_ROOT = new URL('../', import.meta.url)

const IMPORTER = (filePath: string) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) {
    return import(new URL(filePath, APP_ROOT).href)
  }
  return import(filePath)
}

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
