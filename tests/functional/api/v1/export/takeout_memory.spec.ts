import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { readFile } from 'node:fs/promises'
import { ProcessGroup } from '#tests/functional/scale_out/processes'
import { freePort } from '#tests/helpers/free_port'
import { freshDatabase } from '#tests/functional/sync/simulator_context'
import { createUser } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { NPM_START_ENV, NPM_START_NODE_OPTIONS } from '#tests/helpers/npm_start'

const TODAY = '2026-03-15'
/** Ten years of days. */
const DAYS = 3650
/** Heart-rate samples per day (every 5 minutes) and sleep series points per night. */
const HR_SAMPLES = 288
const SLEEP_POINTS = 120
/** Rows per multi-row INSERT (far below SQLite's bind-parameter limit). */
const BATCH = 200
/**
 * RSS growth allowed while the takeout streams. Measured from the compiled server 47–53 MB on SQLite
 * and PostgreSQL (up to 90 MB on a machine busy with other work), the same for 2.5 and for 10 years:
 * V8's old-space headroom under `npm start`'s memory flags, not the archive (its uncompressed
 * files are 148 MB). Generous against GC timing on a busy machine, far below a buffered history.
 */
const RSS_BOUND_MB = 150

const pad = (n: number) => String(n).padStart(2, '0')
const clock = (minutes: number) => `${pad(Math.floor(minutes / 60) % 24)}:${pad(minutes % 60)}:00`

/** Inserts `count` rows built by `row(i)` in batches, never holding more than one batch. */
async function seed(table: string, count: number, row: (i: number) => Record<string, unknown>) {
  for (let start = 0; start < count; start += BATCH) {
    const rows = []
    for (let i = start; i < Math.min(count, start + BATCH); i++) rows.push(row(i))
    await db.table(table).multiInsert(rows)
  }
}

/** A user with ten years of sleep, recharge, activity, heart rate (with samples), cardio load and exercises. */
async function seedDecade(userId: number) {
  const first = DateTime.fromISO(TODAY).minus({ days: DAYS - 1 })
  const date = (i: number) => first.plus({ days: i }).toISODate()!
  const created = `${TODAY} 06:00:00`
  await seed('sleep_records', DAYS, (i) => ({
    user_id: userId,
    date: date(i),
    sleep_score: 60 + (i % 35),
    light_sleep_seconds: 14000 + (i % 900),
    deep_sleep_seconds: 5000 + (i % 700),
    rem_sleep_seconds: 6000 + (i % 800),
    heart_rate_avg: 50 + (i % 10),
    hypnogram: JSON.stringify(Array.from({ length: SLEEP_POINTS }, (_, k) => ({ time: clock(k * 4), stage: k % 4 }))),
    heart_rate_samples: JSON.stringify(Array.from({ length: SLEEP_POINTS }, (_, k) => ({ time: clock(k * 4), heart_rate: 48 + (k % 15) }))),
    created_at: created,
  }))
  await seed('nightly_recharges', DAYS, (i) => ({
    user_id: userId,
    date: date(i),
    hrv_avg: 40 + (i % 30),
    ans_charge: (i % 20) - 10,
    breathing_rate_avg: 13 + (i % 4),
    created_at: created,
  }))
  await seed('daily_activities', DAYS, (i) => ({
    user_id: userId,
    date: date(i),
    steps: 4000 + ((i * 37) % 9000),
    calories_total: 2000 + (i % 600),
    created_at: created,
  }))
  await seed('heart_rate_days', DAYS, (i) => ({
    user_id: userId,
    date: date(i),
    hr_min: 45,
    hr_avg: 68,
    hr_max: 150,
    sample_count: HR_SAMPLES,
    samples: JSON.stringify(Array.from({ length: HR_SAMPLES }, (_, k) => ({ time: clock(k * 5), heart_rate: 55 + ((k * 7) % 60) }))),
    created_at: created,
  }))
  await seed('cardio_loads', DAYS, (i) => ({ user_id: userId, date: date(i), strain: i % 90, tolerance: 50, created_at: created }))
  await seed('exercises', 1500, (i) => ({
    user_id: userId,
    polar_exercise_id: `decade${i}`,
    start_date: date(Math.floor((i * DAYS) / 1500)),
    start_time: `${date(Math.floor((i * DAYS) / 1500))} 18:30:00`,
    sport: 'RUNNING',
    duration_seconds: 3600,
    heart_rate_zones: JSON.stringify([1, 2, 3, 4, 5].map((index) => ({ index, in_zone_seconds: 600 }))),
    created_at: created,
  }))
  return DAYS * 5 + 1500
}

/** Resident set size of a process in bytes (Linux `/proc/<pid>/status`). */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)![1]) * 1024
}

/** Downloads a takeout, dropping each chunk as a client does; returns its size and last bytes. */
async function drain(url: string) {
  const response = await fetch(url)
  if (response.status !== 200) throw new Error(`takeout answered ${response.status}`)
  let bytes = 0
  let tail = Buffer.alloc(0)
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length
    tail = Buffer.concat([tail, Buffer.from(chunk)]).subarray(-4096)
  }
  return { bytes, tail }
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

/** Sum of the uncompressed sizes in the central directory records found in an archive's last bytes. */
function uncompressedBytes(tail: Buffer): number {
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02])
  let total = 0
  for (let at = tail.indexOf(signature); at !== -1 && at + 28 <= tail.length; at = tail.indexOf(signature, at + 4)) {
    total += tail.readUInt32LE(at + 24)
  }
  return total
}

// The server runs as its own process started as `npm start` starts it (compiled build, its V8
// memory flags), so its RSS is measured alone, without the test runner's or the seeding's.
test.group('API v1 | takeout memory', (group) => {
  let processes: ProcessGroup
  group.each.setup(() => freshDatabase())
  group.each.setup(() => pinClock(`${TODAY}T12:00:00`))
  group.each.setup(() => {
    processes = new ProcessGroup({ NODE_ENV: 'production', LOG_LEVEL: 'warn' })
    return () => processes.stopAll()
  })

  test('a ten-year user streams from a server process with bounded memory', async ({ assert }) => {
    const user = await createUser('decade')
    await createUser('warmup')
    const rows = await seedDecade(user.id)
    // As `npm start` runs it: the compiled build with its memory settings (package.json "start").
    const web = await processes.compiledWeb('takeout-web', await freePort(), {
      ...NPM_START_ENV,
      NODE_OPTIONS: NPM_START_NODE_OPTIONS,
    })
    const pid = web.process.child.pid!
    // One small takeout first, so the code paths are loaded before the baseline is taken.
    await drain(`${web.url}/api/v1/users/warmup/export/takeout`)

    const rssBefore = await rssOf(pid)
    let rssPeak = rssBefore
    const sampler = setInterval(() => {
      rssOf(pid)
        .then((rss) => (rssPeak = Math.max(rssPeak, rss)))
        .catch(() => {})
    }, 20)
    const started = Date.now()
    let result: { bytes: number; tail: Buffer }
    try {
      result = await drain(`${web.url}/api/v1/users/decade/export/takeout`)
    } finally {
      clearInterval(sampler)
    }
    const growth = rssPeak - rssBefore
    process.stdout.write(
      `    takeout of ${rows} rows over ${DAYS} days: ${mb(result.bytes)} MB ZIP (${mb(uncompressedBytes(result.tail))} MB of files) in ${((Date.now() - started) / 1000).toFixed(1)} s; server RSS ${mb(rssBefore)} MB before, peak ${mb(rssPeak)} MB, growth ${mb(growth)} MB\n`
    )
    // The end-of-central-directory record closes a complete archive.
    assert.isAbove(result.tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])), -1)
    assert.isBelow(growth / 1024 / 1024, RSS_BOUND_MB)
  }).timeout(600_000)
})
