/*
|--------------------------------------------------------------------------
| Raw node:http JSON server (benchmark reference)
|--------------------------------------------------------------------------
|
| The ceiling of one Node process on this machine: the bare route's answer
| (`{ok, service, time}`) written by node:http alone, no framework. Every HTTP
| benchmark figure is also given as a ratio to this server measured in the
| same run. With BODY_BYTES it answers a fixed JSON body of that size instead
| (the ceiling for a data answer of the same size). PORT from the environment;
| never used outside bench/.
|
*/
import { createServer } from 'node:http'

const size = Number(process.env.BODY_BYTES ?? 0)
const fixed = size > 0 ? Buffer.from(JSON.stringify({ padding: 'x'.repeat(Math.max(0, size - 14)) })) : null

const server = createServer((_request, response) => {
  const body = fixed ?? JSON.stringify({ ok: true, service: 'hrvault', time: new Date().toISOString() })
  response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) })
  response.end(body)
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1')
process.once('SIGTERM', () => server.close(() => process.exit(0)))
process.once('SIGINT', () => process.exit(0))
