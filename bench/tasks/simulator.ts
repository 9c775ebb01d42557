/*
|--------------------------------------------------------------------------
| Task: a Polar simulator for load (no latency, no rate limit)
|--------------------------------------------------------------------------
|
| Serves every user a 28-day window ending today, answers at once and lifts
| the rate limit (which the benchmark accounts for separately), prints
| `{url}` and runs until SIGTERM.
|
*/
import { startPolarSimulator } from '#simulators/polar/simulator'

const sim = await startPolarSimulator({ window: 28, latencyMs: 0, rateLimit: { short: 1e9, long: 1e9 } })
process.stdout.write(`\n${JSON.stringify({ url: sim.url })}\n`)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await sim.close()
    process.exit(0)
  })
}
