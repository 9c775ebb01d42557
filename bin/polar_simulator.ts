/*
|--------------------------------------------------------------------------
| Polar AccessLink simulator
|--------------------------------------------------------------------------
|
| `npm run simulator [-- --port 4010 --today 2026-11-22 --window 90 --latency 50]`
| serves synthetic AccessLink v3 data on loopback until Ctrl+C. Point HRVault
| at it with the printed POLAR_* variables.
|
*/
import { parseArgs } from 'node:util'
import { startPolarSimulator } from '#simulators/polar/simulator'

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '4010' },
    today: { type: 'string' },
    window: { type: 'string', default: '28' },
    latency: { type: 'string', default: '0' },
    'require-registration': { type: 'boolean', default: false },
  },
})

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
    '',
  ].join('\n')
)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await simulator.close()
    process.exit(0)
  })
}
