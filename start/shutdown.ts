/*
|--------------------------------------------------------------------------
| Shutdown
|--------------------------------------------------------------------------
|
| The cache's Redis bus subscribes without awaiting (bentocache), so a short
| command such as `sync:scheduler --once` can close the connections while
| that subscription is still in flight: ioredis then rejects it with
| "Connection is closed." and Node would exit 1 after the work succeeded.
| Only that rejection, and only while the app terminates, is ignored; any
| other unhandled rejection still ends the process as Node's default does.
|
*/
import app from '@adonisjs/core/services/app'

const closedConnection = (reason: unknown) => reason instanceof Error && reason.message === 'Connection is closed.'

process.on('unhandledRejection', (reason) => {
  if ((app.isTerminating || app.isTerminated) && closedConnection(reason)) return
  throw reason
})
