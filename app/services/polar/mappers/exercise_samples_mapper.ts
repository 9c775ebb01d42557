import { parseIsoDuration } from '#services/polar/durations'
import { mapExercise } from '#services/polar/mappers/exercise_mapper'
import { dedupeBy, int, isRecord, json, num } from '#services/polar/mappers/values'
import type { WireExercise } from '#services/polar/wire_types'

/** AccessLink sample types by id (reference §5.1): `sample-type` 0…11. */
export const SAMPLE_TYPES = [
  { name: 'heart_rate', unit: 'bpm' },
  { name: 'speed', unit: 'km/h' },
  { name: 'cadence', unit: 'rpm' },
  { name: 'altitude', unit: 'm' },
  { name: 'power', unit: 'W' },
  { name: 'power_pedaling_index', unit: '%' },
  { name: 'power_lr_balance', unit: '%' },
  { name: 'air_pressure', unit: 'hPa' },
  { name: 'running_cadence', unit: 'spm' },
  { name: 'temperature', unit: '°C' },
  { name: 'distance', unit: 'm' },
  { name: 'rr_interval', unit: 'ms' },
] as const

export type SampleTypeName = (typeof SAMPLE_TYPES)[number]['name']

/** Id of a named sample type. */
export const sampleTypeId = (name: SampleTypeName) => SAMPLE_TYPES.findIndex((type) => type.name === name)

/**
 * One stored sample stream (`exercise_samples.samples` is a JSON array of these, in wire order).
 * `data[i]` was recorded `i × recording_rate_seconds` after the start; null entries are gaps
 * (sensor offline). RR intervals have no rate: their values are consecutive beat intervals (ms).
 */
export interface StoredSampleSeries {
  sample_type: number
  recording_rate_seconds: number | null
  data: Array<number | null>
}

/** One stored heart-rate zone; `index` as Polar sent it (live answers start at 0, the spec's example at 1). */
export interface StoredZone {
  index: number | null
  lower_limit: number | null
  upper_limit: number | null
  in_zone_seconds: number | null
}

/**
 * The stored GPS route, one array per attribute (compact for long tracks): point `i` is at
 * `latitude[i]`, `longitude[i]` (WGS84 degrees), `time_seconds[i]` after the start (null when
 * Polar gave no time), with its satellite count and Polar's fix code.
 */
export interface StoredRoute {
  time_seconds: Array<number | null>
  latitude: number[]
  longitude: number[]
  satellites: Array<number | null>
  fix: Array<number | null>
}

/** Columns of `exercise_samples` (model ExerciseSample) without `userId`. */
export interface ExerciseSampleRow {
  polarExerciseId: string
  /** Local start `YYYY-MM-DD HH:MM:SS` and its date, as on the exercise. */
  startTime: string
  startDate: string
  /** Minutes east of UTC. */
  startTimeUtcOffset: number | null
  /** JSON `StoredSampleSeries[]`, null without samples. */
  samples: string | null
  /** JSON `StoredZone[]`, null without zones. */
  heartRateZones: string | null
  /** JSON `StoredRoute`, null without a route. */
  route: string | null
  routePointCount: number
}

/**
 * Maps the samples, zones and route of an exercise detail; null without an id or a readable start
 * (as the exercise itself). Every mappable item gives a row, empty parts null, so an exercise whose
 * detail was fetched is known to have been fetched even when it had nothing to store.
 */
export function mapExerciseSamples(wire: WireExercise): ExerciseSampleRow | null {
  const exercise = mapExercise(wire)
  if (!exercise) return null
  const route = routeOf(wire.route)
  return {
    polarExerciseId: exercise.polarExerciseId,
    startTime: exercise.startTime,
    startDate: exercise.startDate,
    startTimeUtcOffset: exercise.startTimeUtcOffset,
    samples: json(seriesOf(wire.samples)),
    heartRateZones: json(zonesOf(wire.heart_rate_zones)),
    route: route ? JSON.stringify(route) : null,
    routePointCount: route?.latitude.length ?? 0,
  }
}

/** Maps a list of exercise details, one row per Polar id. */
export function mapExerciseSamplesList(wires: WireExercise[]): ExerciseSampleRow[] {
  return dedupeBy(wires.map(mapExerciseSamples), (row) => row.polarExerciseId)
}

/** `sample-type` as an integer id: the documented string ("0") or the integer live answers send. */
function sampleTypeOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : int(value)
  return n !== null && n >= 0 ? n : null
}

/** One comma-separated value: a finite number, anything else (`null`, empty, garbage) a gap. */
function sampleValue(value: unknown): number | null {
  if (typeof value === 'number') return num(value)
  if (typeof value !== 'string') return null
  const text = value.trim()
  if (text === '' || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return null
  return num(Number(text))
}

function seriesOf(samples: unknown): StoredSampleSeries[] | null {
  if (!Array.isArray(samples)) return null
  const out: StoredSampleSeries[] = []
  for (const sample of samples) {
    if (!isRecord(sample)) continue
    const type = sampleTypeOf(sample['sample-type'] ?? sample.sample_type)
    const raw = sample.data
    const values = typeof raw === 'string' ? (raw.trim() === '' ? [] : raw.split(',')) : Array.isArray(raw) ? raw : null
    if (type === null || values === null || values.length === 0) continue
    const rate = num(sample['recording-rate'] ?? sample.recording_rate)
    out.push({
      sample_type: type,
      recording_rate_seconds: rate !== null && rate > 0 ? rate : null,
      data: values.map(sampleValue),
    })
  }
  return out.length > 0 ? out : null
}

function zonesOf(zones: unknown): StoredZone[] | null {
  if (!Array.isArray(zones)) return null
  const out = zones.filter(isRecord).map((zone) => ({
    index: int(zone.index),
    lower_limit: int(zone['lower-limit'] ?? zone.lower_limit),
    upper_limit: int(zone['upper-limit'] ?? zone.upper_limit),
    in_zone_seconds: parseIsoDuration(zone['in-zone'] ?? zone.in_zone),
  }))
  return out.length > 0 ? out : null
}

/** The offset of a route point: an ISO duration (`PT210.026S`), or plain seconds. */
function offsetSeconds(value: unknown): number | null {
  const seconds = typeof value === 'number' ? num(value) : parseIsoDuration(value)
  return seconds !== null && seconds >= 0 ? seconds : null
}

/**
 * Points with a valid WGS84 position, in wire order; (0, 0) is a receiver without a fix and is
 * dropped, as are points outside the coordinate ranges. Longitude 180 is written as −180 (GPX
 * allows −180 ≤ lon < 180).
 */
function routeOf(points: unknown): StoredRoute | null {
  if (!Array.isArray(points)) return null
  const route: StoredRoute = { time_seconds: [], latitude: [], longitude: [], satellites: [], fix: [] }
  for (const point of points) {
    if (!isRecord(point)) continue
    const lat = num(point.latitude)
    let lon = num(point.longitude)
    if (lat === null || lon === null || lat < -90 || lat > 90 || lon < -180 || lon > 180) continue
    if (lat === 0 && lon === 0) continue
    if (lon === 180) lon = -180
    route.time_seconds.push(offsetSeconds(point.time))
    route.latitude.push(lat)
    route.longitude.push(lon)
    route.satellites.push(int(point.satellites))
    route.fix.push(int(point.fix))
  }
  return route.latitude.length > 0 ? route : null
}
