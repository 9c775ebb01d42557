import { parseIsoDuration } from '#services/polar/durations'
import { localWithOffset } from '#services/polar/local_times'
import type { WireExercise } from '#services/polar/wire_types'
import { bool, dedupeBy, int, isRecord, json, nonNegative, positive, str } from '#services/polar/mappers/values'

/**
 * Columns of `exercises` (model Exercise), without `userId` and our own `id`. `startTime` is the
 * local start `YYYY-MM-DD HH:MM:SS` (DESIGN §4) and `startDate` its date; duration and distance
 * stay in seconds and metres (minutes and km are derived on read, see `./derived`).
 */
export interface ExerciseRow {
  polarExerciseId: string
  startTime: string
  startDate: string
  /** Minutes east of UTC; UTC start = startTime − offset. */
  startTimeUtcOffset: number | null
  uploadTime: string | null
  device: string | null
  deviceId: string | null
  durationSeconds: number | null
  sport: string | null
  detailedSportInfo: string | null
  distanceMeters: number | null
  calories: number | null
  averageHeartRate: number | null
  maxHeartRate: number | null
  trainingLoad: number | null
  runningIndex: number | null
  fatPercentage: number | null
  carbohydratePercentage: number | null
  proteinPercentage: number | null
  hasRoute: boolean | null
  /**
   * JSON `[{index, lower_limit, upper_limit, in_zone_seconds}]`; null when the wire object has no
   * zones (list summaries): when upserting a summary over a stored detail, leave this column out.
   */
  heartRateZones: string | null
  /** JSON of Training Load Pro with snake_case keys; `-1` values become null. */
  trainingLoadPro: string | null
}

/**
 * Maps an exercise summary or detail; null without an id or a readable local start time.
 * The coarse `sport` is kept as Polar sends it (often `OTHER`) next to `detailedSportInfo`.
 */
export function mapExercise(wire: WireExercise): ExerciseRow | null {
  if (!isRecord(wire)) return null
  const id = str(wire.id, 64) ?? (typeof wire.id === 'number' ? String(wire.id) : null)
  const start = localWithOffset(wire.start_time, wire.start_time_utc_offset)
  if (id === null || start === null) return null
  const hr = isRecord(wire.heart_rate) ? wire.heart_rate : {}
  const raw = wire as Record<string, unknown>
  return {
    polarExerciseId: id,
    startTime: start.local,
    startDate: start.local.slice(0, 10),
    startTimeUtcOffset: int(wire.start_time_utc_offset),
    uploadTime: str(wire.upload_time, 32),
    device: str(wire.device, 100),
    deviceId: str(wire.device_id, 64),
    durationSeconds: parseIsoDuration(wire.duration),
    sport: str(wire.sport, 64),
    detailedSportInfo: str(wire.detailed_sport_info, 100),
    distanceMeters: nonNegative(wire.distance),
    calories: int(nonNegative(wire.calories)),
    averageHeartRate: int(positive(hr.average)),
    maxHeartRate: int(positive(hr.maximum)),
    trainingLoad: nonNegative(wire.training_load),
    runningIndex: int(positive(raw['running-index'] ?? raw.running_index)),
    fatPercentage: int(nonNegative(wire.fat_percentage)),
    carbohydratePercentage: int(nonNegative(wire.carbohydrate_percentage)),
    proteinPercentage: int(nonNegative(wire.protein_percentage)),
    hasRoute: bool(wire.has_route),
    heartRateZones: zonesJson(wire.heart_rate_zones),
    trainingLoadPro: trainingLoadProJson(wire.training_load_pro),
  }
}

function zonesJson(zones: unknown): string | null {
  if (!Array.isArray(zones)) return null
  return json(
    zones.filter(isRecord).map((z) => ({
      index: int(z.index),
      lower_limit: int(z['lower-limit'] ?? z.lower_limit),
      upper_limit: int(z['upper-limit'] ?? z.upper_limit),
      in_zone_seconds: parseIsoDuration(z['in-zone'] ?? z.in_zone),
    }))
  )
}

function trainingLoadProJson(value: unknown): string | null {
  if (!isRecord(value)) return null
  const pick = (kebab: string) => value[kebab] ?? value[kebab.replaceAll('-', '_')]
  return json({
    date: str(pick('date'), 10),
    cardio_load: nonNegative(pick('cardio-load')),
    muscle_load: nonNegative(pick('muscle-load')),
    perceived_load: nonNegative(pick('perceived-load')),
    cardio_load_interpretation: str(pick('cardio-load-interpretation'), 32),
    muscle_load_interpretation: str(pick('muscle-load-interpretation'), 32),
    perceived_load_interpretation: str(pick('perceived-load-interpretation'), 32),
    user_rpe: str(pick('user-rpe'), 32),
  })
}

/** Maps a list of exercises, one row per Polar id. */
export function mapExerciseList(wires: WireExercise[]): ExerciseRow[] {
  return dedupeBy(wires.map(mapExercise), (r) => r.polarExerciseId)
}

