import type { WireExercise, WireExerciseSample, WireRoutePoint } from '#services/polar/wire_types'
import { clamp, hash32, rngFor, round } from '#simulators/polar/random'
import type { SimSession, SimUser } from '#simulators/polar/user_model'

/** Metres per degree of latitude (and of longitude at the equator). */
const METRES_PER_DEGREE = 111_320

/** One simulated moment of a session: position along the loop and what the sensors read. */
interface Tick {
  seconds: number
  latitude: number
  longitude: number
  altitude: number
  distance: number
  speedKmh: number
  heartRate: number | null
}

/**
 * Samples and route of one simulated session, the way `GET /v3/exercises/{id}?samples=true&route=true`
 * answers them: every stream at the same recording rate (5 s, 15 s for sessions over ~2.8 h),
 * heart rate with the odd `null` (sensor dropped out), speed, distance, altitude and cadence or
 * power for distance sports, RR intervals (null rate) on some indoor sessions, `sample-type` as a
 * string or (as some live answers) an integer, and for outdoor sessions a GPS loop around the
 * user's home whose length is the session's distance, its times as seconds-only ISO durations.
 * Deterministic per user and session.
 */
export function exerciseStreams(u: SimUser, s: SimSession): { samples: WireExerciseSample[]; route: WireRoutePoint[] | null } {
  const rng = rngFor(u.key, `exercise-streams-${s.id}`, 0)
  const rate = s.durationSeconds > 10_000 ? 15 : 5
  const ticks = ticksOf(u, s, rate)
  const integerTypes = rng.chance(0.3)
  const stream = (type: number, values: Array<number | null>, rateSeconds: number | null = rate): WireExerciseSample => ({
    'recording-rate': rateSeconds,
    'sample-type': integerTypes ? type : String(type),
    'data': values.map((v) => (v === null ? 'null' : String(v))).join(','),
  })

  const samples: WireExerciseSample[] = [stream(0, ticks.map((t) => t.heartRate))]
  const detailed = s.sport.detailed
  if (s.distanceMeters !== null) {
    samples.push(stream(1, ticks.map((t) => round(t.speedKmh, 1))))
    samples.push(stream(10, ticks.map((t) => round(t.distance, 1))))
  }
  if (s.sport.outdoor) samples.push(stream(3, ticks.map((t) => round(t.altitude, 1))))
  if (s.sport.sport === 'RUNNING') samples.push(stream(8, ticks.map(() => Math.round(clamp(rng.normal(172, 4), 150, 195)))))
  if (s.sport.sport === 'CYCLING' || detailed === 'INDOOR_CYCLING') {
    samples.push(stream(2, ticks.map(() => Math.round(clamp(rng.normal(88, 5), 50, 120)))))
    samples.push(stream(4, ticks.map(() => Math.round(clamp(rng.normal(195, 30), 0, 600)))))
  }
  if (s.sport.outdoor && rng.chance(0.5)) {
    const base = 4 + (hash32(`${u.key}|${s.date}|temp`) % 18)
    samples.push(stream(9, ticks.map((_, i) => round(base + (i / ticks.length) * 2 + rng.normal(0, 0.2), 1))))
  }
  if (!s.sport.outdoor && s.distanceMeters === null && rng.chance(0.35)) {
    const beats: number[] = []
    for (let elapsed = 0; elapsed < s.durationSeconds * 1000 && beats.length < 4000; ) {
      const interval = Math.round(clamp(60_000 / s.avgHr + rng.normal(0, 25), 280, 1600))
      beats.push(interval)
      elapsed += interval
    }
    samples.push(stream(11, beats, null))
  }

  const route = s.sport.outdoor
    ? ticks.map((t) => ({
        latitude: round(t.latitude, 8),
        longitude: round(t.longitude, 8),
        time: `PT${round(t.seconds, 3)}S`,
        satellites: rng.int(5, 14),
        fix: 1,
      }))
    : null
  return { samples, route }
}

/** Adds samples and route to a detail answer when their flags are set (the route only with `has_route`). */
export function addStreams(out: WireExercise, u: SimUser, s: SimSession, flags: { samples?: boolean; route?: boolean }) {
  if (!flags.samples && !flags.route) return
  const { samples, route } = exerciseStreams(u, s)
  if (flags.samples) out.samples = samples
  if (flags.route && route) out.route = route
}

/**
 * The session's timeline at `rate` seconds: a warm-up heart-rate curve around the average, and
 * for distance sports a loop of the session's length (radius wobbling, GPS jitter of a few metres)
 * with rolling hills, its speed and distance read back from the positions.
 */
function ticksOf(u: SimUser, s: SimSession, rate: number): Tick[] {
  const rng = rngFor(u.key, `exercise-ticks-${s.id}`, 0)
  const count = Math.max(2, Math.floor(s.durationSeconds / rate) + 1)
  const home = homeOf(u)
  const length = s.distanceMeters ?? 0
  const radius = length / (2 * Math.PI)
  const phase = rng.range(0, 2 * Math.PI)
  const hilly = s.sport.detailed === 'TRAIL_RUNNING' || s.sport.detailed === 'HIKING' ? rng.range(40, 120) : rng.range(5, 25)
  const cosLat = Math.cos((home.latitude * Math.PI) / 180)
  const ticks: Tick[] = []
  let distance = 0
  for (let i = 0; i < count; i++) {
    const seconds = Math.min(i * rate, s.durationSeconds)
    const fraction = seconds / s.durationSeconds
    const angle = 2 * Math.PI * fraction + phase
    const r = radius * (1 + 0.12 * Math.sin(3 * angle))
    const east = r * Math.cos(angle) - radius * Math.cos(phase) + rng.normal(0, 2)
    const north = r * Math.sin(angle) - radius * Math.sin(phase) + rng.normal(0, 2)
    const latitude = home.latitude + north / METRES_PER_DEGREE
    const longitude = home.longitude + east / (METRES_PER_DEGREE * cosLat)
    const previous = ticks.at(-1)
    const step = previous && length > 0 ? metresBetween(previous, { latitude, longitude }) : 0
    distance += step
    const warmUp = 28 * Math.exp(-seconds / 240)
    const heartRate = rng.chance(0.005)
      ? null
      : Math.round(clamp(s.avgHr + 6 - warmUp + rng.normal(0, 3), u.profile.restingHrBase, s.maxHr))
    ticks.push({
      seconds,
      latitude,
      longitude,
      altitude: home.altitude + hilly * Math.sin(2 * angle + phase) + rng.normal(0, 0.4),
      distance,
      speedKmh: previous && seconds > previous.seconds ? (step / (seconds - previous.seconds)) * 3.6 : 0,
      heartRate,
    })
  }
  return ticks
}

/** Where the user's loops start: a deterministic point on land-ish latitudes, with its altitude. */
function homeOf(u: SimUser): { latitude: number; longitude: number; altitude: number } {
  const h = hash32(`${u.key}|home`)
  return {
    latitude: 35 + (h % 2500) / 100,
    longitude: -10 + ((h >>> 12) % 3500) / 100,
    altitude: 5 + ((h >>> 20) % 400),
  }
}

/** Great-circle distance in metres (haversine, mean Earth radius). */
function metresBetween(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180
  const dLat = (b.latitude - a.latitude) * rad
  const dLon = (b.longitude - a.longitude) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)))
}
