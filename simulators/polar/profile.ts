import { Rng, hash32 } from '#simulators/polar/random'

/** A sport a simulated user trains, with Polar's coarse and detailed names. */
export interface SimSport {
  sport: string
  detailed: string
  /** Typical session length in minutes. */
  minutes: number
  /** Relative intensity 0–1 (share of heart-rate reserve). */
  intensity: number
  /** Speed in km/h for distance sports, null for sports without distance. */
  speedKmh: number | null
  outdoor: boolean
}

/** Everything that makes one simulated Polar user different from another. */
export interface SimProfile {
  polarUserId: number
  /** Device product name; biosensing needs an Elixir device. */
  device: string
  deviceId: string
  /** Minutes east of UTC of the user's home zone. */
  tzOffsetMinutes: number
  hrvBase: number
  restingHrBase: number
  maxHr: number
  breathingBase: number
  /** Usual sleep need in hours. */
  sleepNeedHours: number
  /** Usual bedtime in minutes after 21:00 local. */
  bedtimeMinutes: number
  stepsBase: number
  bmrCalories: number
  sports: SimSport[]
  /** Weekdays (0 = Monday) with a planned session. */
  trainingDays: number[]
  /** Offset of the user's 4-week training block. */
  blockPhase: number
  /**
   * Probability that the watch was not worn on a day (no sleep, recharge, HR, SleepWise); a third of
   * it again drops single activity days and recharges. 0 (with `partialRate` 0) = every daily type
   * has every day.
   */
  missingRate: number
  /** Probability that a night is partial (only a few keys). */
  partialRate: number
  /** Whether the device has the Elixir sensors (SpO2, ECG, temperatures). */
  biosensing: boolean
  /** Whether SleepWise data exists (needs a capable device). */
  sleepwise: boolean
  /** Whether biosensing `test_time` is sent in milliseconds instead of seconds. */
  epochMilliseconds: boolean
  /** A brand-new account: every endpoint answers "no data". */
  empty: boolean
}

const SPORTS: Record<string, SimSport> = {
  run: { sport: 'RUNNING', detailed: 'RUNNING', minutes: 50, intensity: 0.72, speedKmh: 10.5, outdoor: true },
  trail: { sport: 'RUNNING', detailed: 'TRAIL_RUNNING', minutes: 80, intensity: 0.7, speedKmh: 8.2, outdoor: true },
  ride: { sport: 'CYCLING', detailed: 'ROAD_BIKING', minutes: 90, intensity: 0.62, speedKmh: 27, outdoor: true },
  indoor: { sport: 'OTHER', detailed: 'INDOOR_CYCLING', minutes: 50, intensity: 0.68, speedKmh: null, outdoor: false },
  strength: { sport: 'OTHER', detailed: 'STRENGTH_TRAINING', minutes: 45, intensity: 0.45, speedKmh: null, outdoor: false },
  swim: { sport: 'OTHER', detailed: 'POOL_SWIMMING', minutes: 45, intensity: 0.6, speedKmh: 2.8, outdoor: false },
  climb: { sport: 'OTHER', detailed: 'VERTICALSPORTS_WALLCLIMBING', minutes: 110, intensity: 0.42, speedKmh: null, outdoor: false },
  yoga: { sport: 'OTHER', detailed: 'YOGA', minutes: 40, intensity: 0.25, speedKmh: null, outdoor: false },
  hike: { sport: 'OTHER', detailed: 'HIKING', minutes: 150, intensity: 0.4, speedKmh: 4.5, outdoor: true },
}

const SPORT_MIXES: string[][] = [
  ['run', 'run', 'strength', 'trail'],
  ['ride', 'indoor', 'run', 'strength'],
  ['run', 'swim', 'ride', 'strength'],
  ['climb', 'strength', 'yoga', 'hike'],
  ['run', 'yoga', 'strength', 'hike'],
]

const DEVICES = [
  { name: 'Polar Grit X2 Pro', elixir: true },
  { name: 'Polar Vantage V3', elixir: true },
  { name: 'Polar Ignite 3', elixir: false },
  { name: 'Polar Pacer Pro', elixir: false },
  { name: 'Polar Vantage M3', elixir: true },
  { name: 'Polar Loop', elixir: false },
]

const ZONES = [60, 120, 0, 120, 60, -300, 180, 60, -480, 120]

/** Polar user id (8 digits) of an arbitrary login or token. */
export function polarUserIdFor(key: string): number {
  return 10_000_000 + (hash32(`polar-user|${key}`) % 89_999_999)
}

/**
 * The deterministic profile of a Polar user id, with `overrides` applied last (tests switch off
 * missing days or force biosensing this way).
 */
export function buildProfile(polarUserId: number, overrides: Partial<SimProfile> = {}): SimProfile {
  const rng = new Rng(`profile|${polarUserId}`)
  const device = rng.pick(DEVICES)
  const mix = rng.pick(SPORT_MIXES)
  const trainingDays = rng.pick([
    [1, 2, 3, 5, 6],
    [0, 2, 4, 5, 6],
    [1, 3, 5, 6],
    [0, 1, 3, 4, 5, 6],
  ])
  const base: SimProfile = {
    polarUserId,
    device: device.name,
    deviceId: rng.int(0x10000000, 0xffffffff).toString(16).toUpperCase(),
    tzOffsetMinutes: rng.pick(ZONES),
    hrvBase: Math.round(rng.range(28, 85)),
    restingHrBase: Math.round(rng.range(44, 64)),
    maxHr: Math.round(rng.range(172, 198)),
    breathingBase: Math.round(rng.range(12, 16.5) * 10) / 10,
    sleepNeedHours: Math.round(rng.range(6.8, 8.2) * 4) / 4,
    bedtimeMinutes: Math.round(rng.range(60, 200)),
    stepsBase: Math.round(rng.range(6000, 12_500)),
    bmrCalories: Math.round(rng.range(1450, 2050)),
    sports: mix.map((key) => SPORTS[key]),
    trainingDays,
    blockPhase: rng.int(0, 3),
    missingRate: rng.pick([0.02, 0.04, 0.06]),
    partialRate: 0.04,
    biosensing: device.elixir,
    sleepwise: device.name !== 'Polar Loop' || rng.chance(0.3),
    epochMilliseconds: rng.chance(0.3),
    empty: false,
  }
  return { ...base, ...overrides, polarUserId }
}

/**
 * Profile hints carried by a token's spelling, for the demo and browser tests:
 * `empty…` → no data at all, `…nobio…` → no biosensing, `…bio…` → biosensing,
 * `…complete…` → no missing days, no partial nights, SleepWise on.
 */
export function overridesFromToken(token: string): Partial<SimProfile> {
  const lower = token.toLowerCase()
  const out: Partial<SimProfile> = {}
  if (lower.startsWith('empty')) out.empty = true
  if (lower.includes('nobio')) out.biosensing = false
  else if (lower.includes('bio')) out.biosensing = true
  if (lower.includes('complete')) {
    out.missingRate = 0
    out.partialRate = 0
    out.sleepwise = true
  }
  return out
}
