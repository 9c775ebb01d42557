import type ExerciseSample from '#models/exercise_sample'
import {
  SAMPLE_TYPES,
  sampleTypeId,
  type SampleTypeName,
  type StoredRoute,
  type StoredSampleSeries,
  type StoredZone,
} from '#services/polar/mappers/exercise_samples_mapper'
import { parseJson } from '#services/records/units'

/** The stored streams of one exercise, parsed; empty arrays and a null route when there are none. */
export interface ExerciseStreams {
  samples: StoredSampleSeries[]
  zones: StoredZone[]
  route: StoredRoute | null
}

/** One point of a track: where (route points only), when, and what the sensors read then. */
export interface TrackPoint {
  /** Seconds after the start; null for a route point Polar gave no time. */
  offsetSeconds: number | null
  /** UTC instant `YYYY-MM-DDTHH:MM:SS(.mmm)Z`, null without an offset. */
  time: string | null
  latitude: number | null
  longitude: number | null
  /** Satellites of the GPS fix (route points). */
  satellites: number | null
  altitude: number | null
  heartRate: number | null
  /** Bike cadence, rpm. */
  cadence: number | null
  /** Running cadence, steps per minute. */
  runningCadence: number | null
  distance: number | null
  speed: number | null
  power: number | null
  temperature: number | null
}

/** Parses the JSON columns of an `exercise_samples` row (malformed or absent parts are empty). */
export function streamsOf(row: Pick<ExerciseSample, 'samples' | 'heartRateZones' | 'route'>): ExerciseStreams {
  const samples = parseJson<StoredSampleSeries[]>(row.samples)
  const zones = parseJson<StoredZone[]>(row.heartRateZones)
  const route = parseJson<StoredRoute>(row.route)
  return {
    samples: Array.isArray(samples) ? samples : [],
    zones: Array.isArray(zones) ? zones : [],
    route: route && Array.isArray(route.latitude) && route.latitude.length > 0 ? route : null,
  }
}

/** Name and unit of a sample type id; null for ids Polar has not documented. */
export function sampleTypeInfo(id: number): { name: string; unit: string } | null {
  return SAMPLE_TYPES[id] ?? null
}

/**
 * UTC milliseconds of a local start `YYYY-MM-DD HH:MM:SS` with its offset in minutes east of UTC
 * (UTC = local − offset). An unknown offset is taken as 0.
 */
export function utcStartMs(localStart: string, offsetMinutes: number | null): number {
  return Date.parse(`${localStart.replace(' ', 'T')}Z`) - (offsetMinutes ?? 0) * 60_000
}

/** ISO UTC instant; whole seconds without a fraction, else milliseconds. */
export function isoUtc(ms: number): string {
  const iso = new Date(Math.round(ms)).toISOString()
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso
}

/**
 * Reads sample streams at a given time: the value of the first stream of a type at the sample
 * nearest `seconds` (index = round(seconds / recording rate)); null for gaps, times past the end
 * and streams without a rate (RR intervals).
 */
export class SampleReader {
  readonly #byType = new Map<number, StoredSampleSeries>()

  constructor(samples: StoredSampleSeries[]) {
    for (const series of samples) {
      const rate = series.recording_rate_seconds
      if (rate !== null && rate > 0 && Array.isArray(series.data) && !this.#byType.has(series.sample_type)) {
        this.#byType.set(series.sample_type, series)
      }
    }
  }

  has(name: SampleTypeName): boolean {
    return this.#byType.has(sampleTypeId(name))
  }

  at(name: SampleTypeName, seconds: number | null): number | null {
    const series = this.#byType.get(sampleTypeId(name))
    if (!series || seconds === null) return null
    const value = series.data[Math.round(seconds / series.recording_rate_seconds!)]
    return typeof value === 'number' && Number.isFinite(value) ? value : null
  }

  /** The longest timed stream: its rate and sample count (the TCX timeline without a route). */
  longest(): { rate: number; count: number } | null {
    let best: { rate: number; count: number } | null = null
    for (const series of this.#byType.values()) {
      const duration = series.data.length * series.recording_rate_seconds!
      if (!best || duration > best.rate * best.count) best = { rate: series.recording_rate_seconds!, count: series.data.length }
    }
    return best
  }
}

/** A point at `offsetSeconds` with the sensor values of that moment. */
function pointAt(
  reader: SampleReader,
  startMs: number,
  offsetSeconds: number | null,
  position: { latitude: number; longitude: number; satellites: number | null } | null
): TrackPoint {
  return {
    offsetSeconds,
    time: offsetSeconds === null ? null : isoUtc(startMs + offsetSeconds * 1000),
    latitude: position?.latitude ?? null,
    longitude: position?.longitude ?? null,
    satellites: position?.satellites ?? null,
    altitude: reader.at('altitude', offsetSeconds),
    heartRate: reader.at('heart_rate', offsetSeconds),
    cadence: reader.at('cadence', offsetSeconds),
    runningCadence: reader.at('running_cadence', offsetSeconds),
    distance: reader.at('distance', offsetSeconds),
    speed: reader.at('speed', offsetSeconds),
    power: reader.at('power', offsetSeconds),
    temperature: reader.at('temperature', offsetSeconds),
  }
}

/** One point per stored route point, in order, with the samples of its time; [] without a route. */
export function routePoints(streams: ExerciseStreams, startMs: number): TrackPoint[] {
  const { route } = streams
  if (!route) return []
  const reader = new SampleReader(streams.samples)
  return route.latitude.map((latitude, i) =>
    pointAt(reader, startMs, route.time_seconds[i] ?? null, {
      latitude,
      longitude: route.longitude[i],
      satellites: route.satellites?.[i] ?? null,
    })
  )
}

/**
 * The timeline of a TCX track: the route points when there is a route, else one point per sample
 * of the longest timed stream (no positions); only points with a time.
 */
export function timelinePoints(streams: ExerciseStreams, startMs: number): TrackPoint[] {
  if (streams.route) return routePoints(streams, startMs).filter((point) => point.time !== null)
  const reader = new SampleReader(streams.samples)
  const longest = reader.longest()
  if (!longest) return []
  return Array.from({ length: longest.count }, (_, i) => pointAt(reader, startMs, i * longest.rate, null))
}
