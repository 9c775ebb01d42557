import { isIsoDate, naiveToLocal } from '#services/polar/local_times'
import type { WireActivityDaySamples, WireDailyActivity } from '#services/polar/wire_types'
import { dedupeBy, int, isRecord, json, str } from '#services/polar/mappers/values'

/** One stored step run: from `time` on, every interval counts `steps` until the next run starts. */
export interface StepRun {
  /** Local `YYYY-MM-DD HH:MM:SS`. */
  time: string
  steps: number | null
}

/** One stored activity-zone change: `zone` starts at `time`. */
export interface ZoneChange {
  time: string
  zone: string | null
}

/**
 * Columns of `activity_samples` (model ActivitySample), without `userId`: one day's samples as
 * Polar sends them (step runs collapsed, zone change points, inactivity stamps), times local.
 * The per-minute series is expanded on read (`#services/records/activity_minutes`).
 */
export interface ActivitySampleRow {
  date: string
  /** Step sample interval, ms (60 000 in every known answer). */
  intervalMs: number | null
  totalSteps: number | null
  /** Step runs stored (the wire's samples, not the expanded minutes). */
  stepRunCount: number
  /** JSON `[{time, steps}]` sorted by time, or null when Polar sent no step samples. */
  stepSamples: string | null
  /** JSON `[{time, zone}]` sorted by time, or null when Polar sent no zone samples. */
  zoneSamples: string | null
  /** JSON `["YYYY-MM-DD HH:MM:SS", …]`, or null when Polar sent none. */
  inactivityStamps: string | null
}

const byTime = <T extends { time: string }>(a: T, b: T) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0)

function stepRuns(samples: WireActivityDaySamples): { runs: StepRun[]; interval: number | null; total: number | null } {
  const steps = isRecord(samples.steps) ? samples.steps : null
  const list = steps && Array.isArray(steps.samples) ? steps.samples.filter(isRecord) : []
  const runs = list
    .map((s) => ({ time: naiveToLocal(s.timestamp), steps: nonNegativeInt(s.steps) }))
    .filter((s): s is StepRun => s.time !== null)
    .sort(byTime)
  const interval = int(steps?.interval_ms)
  return { runs: dedupeBy(runs, (r) => r.time), interval: interval !== null && interval > 0 ? interval : null, total: nonNegativeInt(steps?.total_steps) }
}

/** Step counts: a real 0 stays 0, a negative or missing count is null. */
function nonNegativeInt(value: unknown): number | null {
  const n = int(value)
  return n === null || n < 0 ? null : n
}

function zoneChanges(samples: WireActivityDaySamples): ZoneChange[] {
  const zones = isRecord(samples.activity_zones) && Array.isArray(samples.activity_zones.samples) ? samples.activity_zones.samples : []
  const changes = zones
    .filter(isRecord)
    .map((z) => ({ time: naiveToLocal(z.timestamp), zone: str(z.zone, 32) }))
    .filter((z): z is ZoneChange => z.time !== null)
    .sort(byTime)
  return dedupeBy(changes, (z) => z.time)
}

/** Inactivity stamps in either shape seen: `[{stamp}]` (spec) or `{samples: [{timestamp}]}` (one client). */
function inactivity(samples: WireActivityDaySamples): string[] {
  const raw = samples.inactivity_stamps
  const values: unknown[] = Array.isArray(raw)
    ? raw.filter(isRecord).map((s) => s.stamp)
    : isRecord(raw) && Array.isArray(raw.samples)
      ? raw.samples.filter(isRecord).map((s) => s.timestamp)
      : []
  const stamps = values.map(naiveToLocal).filter((t): t is string => t !== null)
  return [...new Set(stamps)].sort()
}

/**
 * Maps one day-sample object (`/v3/users/activities/samples…`, or `samples` inside a summary).
 * The day is the object's `date`, else `fallbackDate` (the summary's day); null without a valid day.
 * Absent parts are null (not measured); a part Polar sent empty is null too.
 */
export function mapActivitySamples(wire: WireActivityDaySamples, fallbackDate: string | null = null): ActivitySampleRow | null {
  if (!isRecord(wire)) return null
  const date = isIsoDate(wire.date) ? wire.date : fallbackDate
  if (!isIsoDate(date)) return null
  const { runs, interval, total } = stepRuns(wire)
  return {
    date,
    intervalMs: interval,
    totalSteps: total,
    stepRunCount: runs.length,
    stepSamples: json(runs),
    zoneSamples: json(zoneChanges(wire)),
    inactivityStamps: json(inactivity(wire)),
  }
}

/** Maps day-sample objects of the `/samples` endpoints, one row per date. */
export function mapActivitySamplesList(wires: WireActivityDaySamples[]): ActivitySampleRow[] {
  return dedupeBy(
    wires.map((wire) => mapActivitySamples(wire)),
    (row) => row.date
  )
}

/**
 * Maps the `samples` carried by daily activity summaries fetched with the sample flags (the sync's
 * one activity call): one row per day that has them, dated like the summary when the samples
 * object has no `date`. Summaries without samples give no row.
 */
export function mapActivitySamplesFromSummaries(summaries: WireDailyActivity[]): ActivitySampleRow[] {
  return dedupeBy(
    summaries.map((summary) => {
      if (!isRecord(summary) || !isRecord(summary.samples)) return null
      const day = typeof summary.start_time === 'string' ? summary.start_time.slice(0, 10) : null
      return mapActivitySamples(summary.samples, isIsoDate(day) ? day : null)
    }),
    (row) => row.date
  )
}
