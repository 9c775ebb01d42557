import type { SimProfile, SimSport } from '#simulators/polar/profile'
import { clamp, hashedId, rngFor, round } from '#simulators/polar/random'
import {
  DAY_MS,
  MINUTE_MS,
  addDaysTo,
  dayNumber,
  midnight,
  weekIndex,
  weekday,
} from '#simulators/polar/sim_time'

/** One training session of a simulated user. */
export interface SimSession {
  id: string
  date: string
  sport: SimSport
  /** Local wall start in ms. */
  startMs: number
  durationSeconds: number
  /** TRIMP-like cardio load of the session. */
  load: number
  avgHr: number
  maxHr: number
  calories: number
  /** Metres, null for sports without distance. */
  distanceMeters: number | null
}

/** Stage segment of a night: hypnogram code and length in minutes. */
export interface SimSegment {
  code: number
  startMs: number
  minutes: number
}

/** The physiology of one night, ending on wake-up date `date`. */
export interface SimNight {
  date: string
  startMs: number
  endMs: number
  segments: SimSegment[]
  partial: boolean
  hrv: number
  restingHr: number
  breathing: number
}

/** Block multipliers of a 4-week cycle: build, build, overreach, recover. */
const BLOCK = [0.9, 1.05, 1.3, 0.55]
/** Weekly HRV rhythm, Monday first: low after the weekend's long sessions, high on rest days. */
const WEEKLY_HRV = [-0.05, -0.01, 0.01, 0.0, 0.02, 0.05, 0.06]

/**
 * Deterministic model of one simulated user: training sessions, daily load and nightly physiology
 * per calendar date. Results are cached; the same date always yields the same values.
 */
export class SimUser {
  readonly #sessions = new Map<string, SimSession[]>()
  readonly #nights = new Map<string, SimNight | null>()

  constructor(
    readonly key: string,
    readonly profile: SimProfile
  ) {}

  /** True when the watch was not worn that day (no night, HR or SleepWise data). */
  isMissing(date: string): boolean {
    if (this.profile.empty) return true
    return rngFor(this.key, 'missing', dayNumber(date)).chance(this.profile.missingRate)
  }

  /** Block multiplier of the week of `date`. */
  blockFactor(date: string): number {
    return BLOCK[(weekIndex(date) + this.profile.blockPhase) % 4]
  }

  /** Load of a typical main session, the scale of the cardio-load levels. */
  typicalLoad(): number {
    const sport = this.profile.sports[0]
    return sport.minutes * sport.intensity ** 2 * 2.4
  }

  /** Training sessions that started on `date`. */
  sessions(date: string): SimSession[] {
    const cached = this.#sessions.get(date)
    if (cached) return cached
    const list = this.profile.empty ? [] : this.#buildSessions(date)
    this.#sessions.set(date, list)
    return list
  }

  /** Sum of session loads of `date`. */
  dailyLoad(date: string): number {
    return this.sessions(date).reduce((sum, s) => sum + s.load, 0)
  }

  /** The night that ended on `date`, or null when the watch was not worn. */
  night(date: string): SimNight | null {
    if (this.#nights.has(date)) return this.#nights.get(date)!
    const night = this.isMissing(date) ? null : this.#buildNight(date)
    this.#nights.set(date, night)
    return night
  }

  #buildSessions(date: string): SimSession[] {
    const p = this.profile
    const rng = rngFor(this.key, 'training', dayNumber(date))
    const wd = weekday(date)
    if (!p.trainingDays.includes(wd) || rng.chance(0.12)) return []
    const block = this.blockFactor(date)
    const sports = p.sports
    const main = wd >= 5 ? sports[(weekIndex(date) + wd) % 2 === 0 ? 0 : sports.length - 1] : sports[(wd + weekIndex(date)) % sports.length]
    const plans: Array<{ sport: SimSport; hour: number; scale: number }> = [
      { sport: main, hour: wd >= 5 ? 9.5 : rng.chance(0.5) ? 7 : 18, scale: wd === 5 ? 1.5 : 1 },
    ]
    if (rng.chance(0.15)) {
      const extra = sports.find((s) => s.detailed === 'STRENGTH_TRAINING') ?? sports[sports.length - 1]
      plans.push({ sport: extra, hour: plans[0].hour < 12 ? 19 : 6.5, scale: 0.8 })
    }
    return plans.map((plan, index) => {
      const minutes = plan.sport.minutes * plan.scale * Math.sqrt(block) * rng.range(0.8, 1.25)
      const durationSeconds = round(minutes * 60 + rng.range(0, 1), 3)
      const intensity = clamp(plan.sport.intensity * (block > 1.2 ? 1.06 : 1) * rng.range(0.92, 1.08), 0.15, 0.95)
      const load = round(minutes * intensity ** 2 * 2.4 * block, 1)
      const avgHr = Math.round(p.restingHrBase + intensity * (p.maxHr - p.restingHrBase) + rng.normal(0, 3))
      const maxHr = Math.min(p.maxHr, Math.round(avgHr + rng.range(12, 32)))
      const startMs = midnight(date) + Math.round(plan.hour * 60 + rng.range(0, 40)) * MINUTE_MS + rng.int(0, 59) * 1000
      return {
        id: hashedId(`${this.key}|exercise|${date}|${index}`),
        date,
        sport: plan.sport,
        startMs,
        durationSeconds,
        load,
        avgHr,
        maxHr,
        calories: Math.round(minutes * (3.5 + 11 * intensity)),
        distanceMeters: plan.sport.speedKmh === null ? null : round((plan.sport.speedKmh * minutes * 1000) / 60, 1),
      }
    })
  }

  /** HRV (RMSSD ms) and resting HR of the night ending on `date`: weekly rhythm, load, block, noise. */
  physiology(date: string): { hrv: number; restingHr: number; breathing: number } {
    const p = this.profile
    const rng = rngFor(this.key, 'physio', dayNumber(date))
    const previous = addDaysTo(date, -1)
    const loadRatio = this.dailyLoad(previous) / Math.max(1, this.typicalLoad())
    const block = this.blockFactor(previous)
    const blockEffect = block > 1.2 ? -0.07 : block < 0.7 ? 0.04 : 0
    const dip = rng.chance(0.04) ? -0.25 : 0
    const deviation = WEEKLY_HRV[weekday(date)] - 0.1 * (loadRatio - 0.5) + blockEffect + dip + rng.normal(0, 0.06)
    const hrv = Math.max(8, Math.round(p.hrvBase * (1 + deviation)))
    const restingHr = Math.round(p.restingHrBase * (1 - 0.3 * deviation) + rng.normal(0, 1))
    const breathing = round(p.breathingBase - 2 * deviation + rng.normal(0, 0.3), 1)
    return { hrv, restingHr, breathing }
  }

  #buildNight(date: string): SimNight {
    const p = this.profile
    const rng = rngFor(this.key, 'night', dayNumber(date))
    const wakeDay = weekday(date)
    const weekend = wakeDay === 5 || wakeDay === 6
    const eve = midnight(date) - DAY_MS
    const startMs =
      eve + (21 * 60 + p.bedtimeMinutes + (weekend ? 45 : 0) + Math.round(rng.normal(0, 25))) * MINUTE_MS + rng.int(0, 59) * 1000
    const targetAsleep = clamp(p.sleepNeedHours * 60 + rng.normal(0, 35) + (weekend ? 25 : 0), 200, 600)

    const segments: SimSegment[] = []
    let cursor = Math.floor(startMs / MINUTE_MS) * MINUTE_MS
    let asleep = 0
    let cycle = 0
    const push = (code: number, minutes: number) => {
      const m = Math.max(1, Math.round(minutes))
      const last = segments.at(-1)
      if (last && last.code === code) last.minutes += m
      else segments.push({ code, startMs: cursor, minutes: m })
      cursor += m * MINUTE_MS
      if (code !== 0) asleep += m
    }
    while (asleep < targetAsleep) {
      const early = Math.max(0, 1 - cycle * 0.3)
      if (rng.chance(0.25)) push(2, rng.range(1, 3))
      push(3, rng.range(15, 30))
      push(4, rng.range(8, 15) + 28 * early * rng.range(0.5, 1))
      push(3, rng.range(5, 15))
      if (rng.chance(0.04)) push(5, rng.range(2, 6))
      push(1, rng.range(5, 12) + cycle * rng.range(3, 6))
      if (rng.chance(0.45)) push(0, rng.chance(0.6) ? 1 : rng.range(2, 7))
      cycle++
    }
    const physio = this.physiology(date)
    return {
      date,
      startMs,
      endMs: cursor + rng.int(0, 59) * 1000,
      segments,
      partial: rng.chance(p.partialRate),
      ...physio,
    }
  }

  /** Sleep and training intervals (local wall ms) touching `date`, for continuous heart rate. */
  busyIntervals(date: string): Array<{ kind: 'sleep' | 'training'; start: number; end: number }> {
    const out: Array<{ kind: 'sleep' | 'training'; start: number; end: number }> = []
    for (const d of [date, addDaysTo(date, 1)]) {
      const night = this.night(d)
      if (night) out.push({ kind: 'sleep', start: night.startMs, end: night.endMs })
    }
    for (const s of this.sessions(date)) {
      out.push({ kind: 'training', start: s.startMs, end: s.startMs + s.durationSeconds * 1000 })
    }
    return out
  }
}
