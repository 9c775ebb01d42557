import { isoDurationToMinutes } from '#services/polar/durations'
import { isIsoDate, parseDateTime } from '#services/polar/local_times'
import type { WirePhysicalInfo } from '#services/polar/wire_types'
import { dedupeBy, int, isRecord, positive, str } from '#services/polar/mappers/values'

/**
 * Columns of `physical_infos` (model PhysicalInfo), without `userId`: one row per version of the
 * user's physical settings, keyed by the time Polar stamped it. A value the user never set (absent,
 * null, 0 or negative) is null, never 0 or -1.
 */
export interface PhysicalInfoRow {
  /** UTC instant of this version, `YYYY-MM-DDTHH:MM:SSZ`: Polar's `modified`, else `created`. */
  measuredAt: string
  /** Local calendar date of `measuredAt` (the user's UTC offset when known, else UTC). */
  date: string
  weightKg: number | null
  heightCm: number | null
  vo2Max: number | null
  maxHeartRate: number | null
  restingHeartRate: number | null
  aerobicThreshold: number | null
  anaerobicThreshold: number | null
  /** Polar's ISO duration as sent (`PT8H`). */
  sleepGoal: string | null
  sleepGoalMinutes: number | null
  weightSource: string | null
  trainingBackground: string | null
  typicalDay: string | null
  gender: string | null
  /** `YYYY-MM-DD`. */
  birthday: string | null
}

/** `…T…Z` / `…+02:00` / naive (read as UTC) → `YYYY-MM-DDTHH:MM:SSZ`, null when unreadable. */
function utcInstant(value: unknown): string | null {
  const parsed = parseDateTime(value)
  if (!parsed) return null
  const iso = parsed.utc ?? `${parsed.local.replace(' ', 'T')}.000Z`
  return `${iso.slice(0, 19)}Z`
}

/** The local date of a UTC instant shifted by `offsetMinutes` (0 when unknown). */
function localDate(instant: string, offsetMinutes: number | null): string {
  return new Date(Date.parse(instant) + (offsetMinutes ?? 0) * 60_000).toISOString().slice(0, 10)
}

/** An upper-case enum label (`SOURCE_USER`, `MOSTLY_MOVING`), kept as Polar spells it. */
const label = (value: unknown) => str(value, 32)

/**
 * Maps one physical-information answer. The version's timestamp is `modified`, falling back to
 * `created`; without either the answer cannot be placed in the history and maps to null.
 * `offsetMinutes` is the user's UTC offset (latest stored night) for the local `date`.
 */
export function mapPhysicalInfo(wire: WirePhysicalInfo, offsetMinutes: number | null = null): PhysicalInfoRow | null {
  if (!isRecord(wire)) return null
  const measuredAt = utcInstant(wire.modified) ?? utcInstant(wire.created)
  if (measuredAt === null) return null
  const birthday = typeof wire.birthday === 'string' ? wire.birthday.slice(0, 10) : null
  const sleepGoalMinutes = isoDurationToMinutes(wire.sleep_goal, 0)
  return {
    measuredAt,
    date: localDate(measuredAt, offsetMinutes),
    weightKg: positive(wire.weight),
    heightCm: positive(wire.height),
    vo2Max: positive(wire.vo2_max),
    maxHeartRate: int(positive(wire.maximum_heart_rate)),
    restingHeartRate: int(positive(wire.resting_heart_rate)),
    aerobicThreshold: int(positive(wire.aerobic_threshold)),
    anaerobicThreshold: int(positive(wire.anaerobic_threshold)),
    sleepGoal: sleepGoalMinutes ? str(wire.sleep_goal, 32) : null,
    sleepGoalMinutes: sleepGoalMinutes || null,
    weightSource: label(wire.weight_source),
    trainingBackground: label(wire.training_background),
    typicalDay: label(wire.typical_day),
    gender: label(wire.gender),
    birthday: isIsoDate(birthday) ? birthday : null,
  }
}

/** Maps answers (usually one per sync), one row per timestamp: an unchanged `modified` is the same row. */
export function mapPhysicalInfoList(wires: WirePhysicalInfo[], offsetMinutes: number | null = null): PhysicalInfoRow[] {
  return dedupeBy(
    wires.map((wire) => mapPhysicalInfo(wire, offsetMinutes)),
    (row) => row.measuredAt
  )
}
