/*
|--------------------------------------------------------------------------
| Polar AccessLink simulator
|--------------------------------------------------------------------------
|
| `npm run simulator [-- --port 4010 --today 2026-11-22 --window 90 --latency 50]`
| serves synthetic AccessLink v3 data on loopback until Ctrl+C. Point HRVault
| at it with the printed POLAR_* variables.
|
| `--publish-every 30` moves "today" one day forward every 30 seconds and sends
| that day's webhook events (when a webhook was created through /v3/webhooks).
|
*/
import { parseArgs } from 'node:util'
import { addDaysTo } from '#simulators/polar/sim_time'
import { startPolarSimulator } from '#simulators/polar/simulator'

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '4010' },
    today: { type: 'string' },
    window: { type: 'string', default: '28' },
    latency: { type: 'string', default: '0' },
    'require-registration': { type: 'boolean', default: false },
    'publish-every': { type: 'string' },
  },
})

const publishEvery = values['publish-every'] === undefined ? 0 : Number(values['publish-every'])
if (!Number.isFinite(publishEvery) || publishEvery < 0) {
  process.stderr.write('--publish-every wants a number of seconds\n')
  process.exit(1)
}

const simulator = await startPolarSimulator({
  host: values.host,
  port: Number(values.port),
  today: values.today,
  window: Number(values.window),
  latencyMs: Number(values.latency),
  requireRegistration: values['require-registration'],
})

process.stdout.write(
  [
    `Polar AccessLink simulator listening on ${simulator.url}`,
    `  POLAR_API_BASE_URL=${simulator.url}`,
    `  POLAR_AUTH_URL=${simulator.authUrl}`,
    `  POLAR_TOKEN_URL=${simulator.tokenUrl}`,
    `  today=${simulator.today()} window=${values.window} days; any client id/secret is accepted`,
    ...(publishEvery > 0 ? [`  a new day (and its webhook events) every ${publishEvery} s`] : []),
    '',
  ].join('\n')
)

let publishing = false
const publisher =
  publishEvery > 0
    ? setInterval(async () => {
        if (publishing) return
        publishing = true
        try {
          const next = addDaysTo(simulator.today(), 1)
          simulator.setToday(next)
          const sent = await simulator.publishDay(next)
          if (sent.length > 0) {
            const failed = sent.filter((d) => d.status !== 200).length
            process.stdout.write(`${next}: ${sent.length} webhook event(s) sent${failed ? `, ${failed} not answered with 200` : ''}\n`)
          }
        } catch (error) {
          process.stderr.write(`publish failed: ${(error as Error).message}\n`)
        } finally {
          publishing = false
        }
      }, publishEvery * 1000)
    : null

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    if (publisher) clearInterval(publisher)
    await simulator.close()
    process.exit(0)
  })
}
