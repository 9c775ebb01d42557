/*
|--------------------------------------------------------------------------
| HTTP server entrypoint
|--------------------------------------------------------------------------
|
| `npm start` runs this file. It prepares storage and APP_KEY on first start,
| boots the app, runs pending migrations (start/migrate.ts) and serves HTTP.
| The node:http server is createHttpServer's: ReadFastPath answers /health
| and cache hits of data reads before the framework's pipeline, and requests
| Node's parser refuses (headers over 16 KB, malformed HTTP) get a
| problem+json answer too.
|
*/
import 'reflect-metadata'
import { Ignitor, prettyPrintError } from '@adonisjs/core'
import { createHttpServer } from '#services/http_server'
import { prepareFirstStart } from './bootstrap_env.js'
import { APP_ROOT, IMPORTER } from './app_root.js'

prepareFirstStart(APP_ROOT)

new Ignitor(APP_ROOT, { importer: IMPORTER })
  .tap((app) => {
    app.booting(async () => {
      await import('#start/env')
    })
    app.listen('SIGTERM', () => app.terminate())
    app.listenIf(app.managedByPm2, 'SIGINT', () => app.terminate())
  })
  .httpServer()
  .start(createHttpServer)
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
