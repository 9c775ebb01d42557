/*
|--------------------------------------------------------------------------
| HTTP server entrypoint
|--------------------------------------------------------------------------
|
| `npm start` runs this file. It prepares storage and APP_KEY on first start,
| boots the app, runs pending migrations (start/migrate.ts) and serves HTTP.
| Requests Node's parser refuses (headers over 16 KB, malformed HTTP) get a
| problem+json answer too.
|
*/
import 'reflect-metadata'
import { createServer } from 'node:http'
import { Ignitor, prettyPrintError } from '@adonisjs/core'
import { answerClientError, MAX_HEADER_BYTES } from '#exceptions/client_error_response'
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
  .start((handler) => createServer({ maxHeaderSize: MAX_HEADER_BYTES }, handler).on('clientError', answerClientError))
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
