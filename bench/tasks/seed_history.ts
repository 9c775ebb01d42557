/*
|--------------------------------------------------------------------------
| Task: one user with three years of history, synced from the simulator
|--------------------------------------------------------------------------
|
| Back-fills `--days` (default 1095) of history for one user through the real
| sync engine, in 28-day windows (Polar's window), from a loopback Polar
| simulator whose "today" moves with the window: mappers, batched upserts and
| the post-sync analytics all run as in production. Creates a service API key,
| vacuums and analyses a PostgreSQL database, and prints `{user, apiKey, rows,
| windows, seconds}`.
|
*/
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import { DateTime } from 'luxon'
import { bootConsoleApp, emit } from '../lib/console_app.js'

const { values } = parseArgs({ options: { days: { type: 'string', default: '1095' }, user: { type: 'string', default: 'bench' } } })
const totalDays = Number(values.days)

const app = await bootConsoleApp()
const { default: User } = await import('#models/user')
const { ApiKeyService } = await import('#services/auth/api_key_service')
const { ClockService } = await import('#services/clock_service')
const { PolarClientFactory } = await import('#services/polar/polar_client_factory')
const { SyncEngine } = await import('#services/sync/sync_engine')
const { startPolarSimulator } = await import('#simulators/polar/simulator')

class MovableClock extends ClockService {
  date = ''
  now(): DateTime {
    return this.date ? DateTime.fromISO(`${this.date}T12:00:00`, { zone: this.zone }) : super.now()
  }
}

const realToday = new ClockService().today().toISODate()!
const sim = await startPolarSimulator({ today: realToday, window: 28, latencyMs: 0, rateLimit: { short: 1e9, long: 1e9 } })
const clock = new MovableClock()
app.container.swap(ClockService, () => clock)
app.container.swap(PolarClientFactory, () => new PolarClientFactory({ baseUrl: sim.url, retryDelayMs: 5, timeoutMs: 10_000 }))

const started = performance.now()
const user = await User.create({ externalId: values.user!, isActive: true })
const engine = await app.container.make(SyncEngine)
const token = `${values.user}_bio_complete`
const windows = Math.ceil(totalDays / 28)
let written = 0
for (let k = windows - 1; k >= 0; k--) {
  const today = DateTime.fromISO(realToday, { zone: 'utc' }).minus({ days: 28 * k }).toISODate()!
  clock.date = k === 0 ? '' : today
  sim.setToday(today)
  const outcome = await engine.run(user, { token, days: 28, trigger: 'command' })
  if (outcome.status !== 'success') throw new Error(`window ending ${today}: ${outcome.status} ${JSON.stringify(outcome.errors)}`)
  written += outcome.rowsWritten
}
const seconds = (performance.now() - started) / 1000
const { plain } = await (await app.container.make(ApiKeyService)).create('bench')
await sim.close()
// A year of history that accumulated over a year has been vacuumed and analysed by PostgreSQL's
// autovacuum (on by default) long before it is read; measured minutes after a bulk load, it has
// neither (no planner statistics, no all-visible pages for index-only scans), and the machine's
// PostgreSQL may run with autovacuum off. So the seeded database is brought to that state once.
const { default: db } = await import('@adonisjs/lucid/services/db')
if (db.connection().dialect.name === 'postgres') await db.rawQuery('vacuum (analyze)')
emit({ user: user.externalId, apiKey: plain, rowsWritten: written, windows, days: windows * 28, seconds: Math.round(seconds * 10) / 10 })
await app.terminate()
