/*
|--------------------------------------------------------------------------
| Raw node:http JSON server (benchmark reference)
|--------------------------------------------------------------------------
|
| The ceiling of one Node process on this machine: the bare route's answer
| (`{ok, service, time}`) written by node:http alone, no framework. Every HTTP
| benchmark figure is also given as a ratio to this server measured in the
| same run. With BODY_BYTES it answers a fixed JSON body of that size instead
| (the ceiling for a data answer of the same size). With RAW_ANSWER=deferred it
| answers in the event loop's check phase (setImmediate) instead of inside the
| request's own callback: the answers to every request read in one turn then go
| out together, which on a virtual machine where each wake-up of the load
| generator is expensive was 40–55 % faster at 16 connections than answering at
| once, and 15 % slower at one connection. The HTTP bench runs both and measures
| against the faster (http.ts, RawReference). PORT from the environment; never
| used outside bench/.
|
*/
import { createServer, type ServerResponse } from 'node:http'

const size = Number(process.env.BODY_BYTES ?? 0)
const fixed = size > 0 ? Buffer.from(JSON.stringify({ padding: 'x'.repeat(Math.max(0, size - 14)) })) : null

const deferred = process.env.RAW_ANSWER === 'deferred'

function answer(response: ServerResponse) {
  const body = fixed ?? JSON.stringify({ ok: true, service: 'hrvault', time: new Date().toISOString() })
  response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) })
  response.end(body)
}

const server = createServer((_request, response) => {
  if (deferred) setImmediate(answer, response)
  else answer(response)
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1')
process.once('SIGTERM', () => server.close(() => process.exit(0)))
process.once('SIGINT', () => process.exit(0))
