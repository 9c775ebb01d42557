import { formatIsoDuration } from '#services/polar/durations'
import type {
  WireContinuousHeartRateDay,
  WireDailyActivity,
  WireNightlyRecharge,
  WireSleep,
  WireSleepwiseAlertness,
  WireSleepwiseBedtime,
} from '#services/polar/wire_types'
import { clamp, rngFor, round } from '#simulators/polar/random'
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  addDaysTo,
  dayNumber,
  hhmm,
  hhmmss,
  midnight,
  naive,
  utcNaive,
  weekday,
  withOffset,
} from '#simulators/polar/sim_time'
import type { SimNight, SimUser } from '#simulators/polar/user_model'

/** `polar_user` URL of a simulated user, as Polar spells it. */
export function polarUserUrl(u: SimUser): string {
  return `https://www.polaraccesslink.com/v3/users/${u.profile.polarUserId}`
}

interface StageTotals {
  light: number
  deep: number
  rem: number
  unknown: number
  awake: number
  shortWake: number
  longWake: number
  wakes: number
}

function totals(night: SimNight): StageTotals {
  const t: StageTotals = { light: 0, deep: 0, rem: 0, unknown: 0, awake: 0, shortWake: 0, longWake: 0, wakes: 0 }
  for (const s of night.segments) {
    const seconds = s.minutes * 60
    if (s.code === 1) t.rem += seconds
    else if (s.code === 2 || s.code === 3) t.light += seconds
    else if (s.code === 4) t.deep += seconds
    else if (s.code === 5) t.unknown += seconds
    else {
      t.awake += seconds
      t.wakes++
      if (seconds < 90) t.shortWake += seconds
      else t.longWake += seconds
    }
  }
  return t
}

/** Sleep score 1–100 of a night (duration, deep share, interruptions). */
export function sleepScore(u: SimUser, night: SimNight): number {
  const t = totals(night)
  const asleepHours = (t.light + t.deep + t.rem) / 3600
  const rng = rngFor(u.key, 'score', dayNumber(night.date))
  const duration = clamp(asleepHours / u.profile.sleepNeedHours, 0, 1.1) * 62
  const deepBonus = ((t.deep / Math.max(1, t.light + t.deep + t.rem)) - 0.18) * 50
  return clamp(Math.round(duration + 18 + deepBonus - (t.awake / 60) * 0.4 + rng.normal(0, 4)), 20, 98)
}

/** The sleep object of the night ending on `date` (`null` = no night recorded). */
export function sleepFor(u: SimUser, date: string): WireSleep | null {
  const night = u.night(date)
  if (!night) return null
  const tz = u.profile.tzOffsetMinutes
  const score = sleepScore(u, night)
  const base: WireSleep = {
    polar_user: polarUserUrl(u),
    date,
    sleep_start_time: withOffset(night.startMs, tz),
    sleep_end_time: withOffset(night.endMs, tz),
    sleep_score: score,
  }
  if (night.partial) return base

  const t = totals(night)
  const rng = rngFor(u.key, 'sleep-extra', dayNumber(date))
  const continuity = round(clamp(5 - t.awake / 60 / 12 - t.wakes * 0.12, 1, 5), 1)
  const asleep = t.light + t.deep + t.rem
  const hypnogram: Record<string, number> = {}
  for (const s of night.segments) hypnogram[hhmm(s.startMs)] = s.code
  const heartRate: Record<string, number> = {}
  const first = Math.ceil(night.startMs / MINUTE_MS) * MINUTE_MS
  for (let ms = first; ms < night.endMs; ms += 5 * MINUTE_MS) {
    if (rng.chance(0.03)) continue
    const code = night.segments.findLast((s) => s.startMs <= ms)?.code ?? 3
    const stageShift = code === 4 ? -3 : code === 1 ? 2 : code === 0 ? 8 : 0
    const settle = 6 * Math.exp(-(ms - night.startMs) / HOUR_MS)
    heartRate[hhmm(ms)] = Math.round(night.restingHr - 3 + settle + stageShift + rng.normal(0, 1.5))
  }
  return {
    ...base,
    device_id: u.profile.deviceId,
    continuity,
    continuity_class: clamp(Math.round(continuity - 0.4), 1, 5),
    light_sleep: t.light,
    deep_sleep: t.deep,
    rem_sleep: t.rem,
    unrecognized_sleep_stage: t.unknown,
    total_interruption_duration: t.awake,
    sleep_charge: score < 60 ? 1 : score < 70 ? 2 : score < 80 ? 3 : score < 88 ? 4 : 5,
    sleep_goal: Math.round(u.profile.sleepNeedHours * 3600),
    sleep_rating: rng.chance(0.8) ? 0 : rng.int(2, 5),
    short_interruption_duration: t.shortWake,
    long_interruption_duration: t.longWake,
    sleep_cycles: Math.max(1, Math.round(asleep / 5400)),
    group_duration_score: round(clamp((asleep / 3600 / u.profile.sleepNeedHours) * 90, 1, 100), 1),
    group_solidity_score: round(clamp(continuity * 20, 1, 100), 1),
    group_regeneration_score: round(clamp(((t.deep + t.rem) / Math.max(1, asleep)) * 170, 1, 100), 1),
    hypnogram,
    heart_rate_samples: heartRate,
  }
}

/** ANS charge status 1–5 of an ANS charge value. */
function ansStatus(ans: number): number {
  return ans < -5 ? 1 : ans < -1.5 ? 2 : ans <= 1.5 ? 3 : ans <= 5 ? 4 : 5
}

/** Nightly Recharge of the night ending on `date`; nights under 4 h asleep have none. */
export function rechargeFor(u: SimUser, date: string): WireNightlyRecharge | null {
  const night = u.night(date)
  if (!night) return null
  const rng = rngFor(u.key, 'recharge', dayNumber(date))
  const t = totals(night)
  if (t.light + t.deep + t.rem < 4 * 3600 || rng.chance(u.profile.missingRate / 3)) return null
  const p = u.profile
  const ans = round(clamp((night.hrv / p.hrvBase - 1) * 20 - (night.restingHr / p.restingHrBase - 1) * 30, -10, 10), 1)
  const charge = sleepScore(u, night)
  const sleepCharge = charge < 60 ? 1 : charge < 70 ? 2 : charge < 80 ? 3 : charge < 88 ? 4 : 5
  const status = clamp(Math.round(((ansStatus(ans) + sleepCharge) / 2) * 1.2), 1, 6)
  if (night.partial) {
    return { polar_user: polarUserUrl(u), date, heart_rate_avg: night.restingHr, nightly_recharge_status: status }
  }
  const hrvSamples: Record<string, number> = {}
  const breathingSamples: Record<string, number> = {}
  const windowStart = Math.ceil((night.startMs + 30 * MINUTE_MS) / MINUTE_MS) * MINUTE_MS
  for (let ms = windowStart; ms < windowStart + 4 * HOUR_MS && ms < night.endMs; ms += 5 * MINUTE_MS) {
    hrvSamples[hhmm(ms)] = Math.max(5, Math.round(night.hrv + rng.normal(0, 6)))
    breathingSamples[hhmm(ms - 2 * MINUTE_MS)] = round(night.breathing + rng.normal(0, 0.4), 1)
  }
  return {
    polar_user: polarUserUrl(u),
    date,
    heart_rate_avg: night.restingHr,
    beat_to_beat_avg: Math.round(60_000 / night.restingHr),
    heart_rate_variability_avg: night.hrv,
    breathing_rate_avg: night.breathing,
    nightly_recharge_status: status,
    ans_charge: ans,
    ans_charge_status: ansStatus(ans),
    hrv_samples: hrvSamples,
    breathing_samples: breathingSamples,
  }
}

/** Daily activity summary of `date`; `withSamples` adds step, zone and inactivity samples. */
export function activityFor(u: SimUser, date: string, withSamples = false): WireDailyActivity | null {
  if (u.profile.empty) return null
  const rng = rngFor(u.key, 'activity', dayNumber(date))
  if (rng.chance(u.profile.missingRate / 3)) return null
  const p = u.profile
  const sessions = u.sessions(date)
  const wd = weekday(date)
  const walkSteps = Math.max(400, Math.round(p.stepsBase * (wd >= 5 ? 0.85 : 1) * rng.normal(1, 0.22)))
  const runSteps = sessions
    .filter((s) => s.sport.sport === 'RUNNING' || s.sport.detailed === 'HIKING')
    .reduce((sum, s) => sum + Math.round((s.durationSeconds / 60) * (s.sport.sport === 'RUNNING' ? 165 : 110)), 0)
  const steps = walkSteps + runSteps
  const activeCalories = Math.round(walkSteps * 0.042 + sessions.reduce((sum, s) => sum + s.calories, 0))
  const activeSeconds = Math.round(walkSteps / 95) * 60 + sessions.reduce((sum, s) => sum + Math.round(s.durationSeconds), 0)
  const inactiveSeconds = Math.max(0, Math.round((rng.range(5, 10) * 3600) / 30) * 30)
  const summary: WireDailyActivity = {
    start_time: `${date}T00:00`,
    end_time: `${date}T23:59:59`,
    active_duration: formatIsoDuration(activeSeconds),
    inactive_duration: formatIsoDuration(inactiveSeconds),
    daily_activity: round((activeCalories / 900) * 100, 2),
    calories: p.bmrCalories + activeCalories,
    active_calories: activeCalories,
    steps,
    inactivity_alert_count: rng.int(0, 4),
    distance_from_steps: round(steps * 0.74, 2),
  }
  if (withSamples) {
    const base = midnight(date)
    summary.samples = {
      date,
      steps: { interval_ms: 60_000, total_steps: steps, samples: stepSamplesFor(u, date, steps) },
      activity_zones: {
        samples: [
          { zone: 'SLEEP', timestamp: naive(base) },
          { zone: 'SEDENTARY', timestamp: naive(base + 7 * HOUR_MS + 30 * 1000) },
          { zone: 'LIGHT', timestamp: naive(base + 8 * HOUR_MS) },
          { zone: 'SEDENTARY', timestamp: naive(base + 9 * HOUR_MS) },
          ...sessions.map((s) => ({ zone: s.sport.intensity > 0.55 ? 'VIGOROUS' : 'MODERATE', timestamp: naive(s.startMs) })),
        ],
      },
      inactivity_stamps: Array.from({ length: summary.inactivity_alert_count ?? 0 }, (_, i) => ({
        stamp: naive(base + (10 + i * 3) * HOUR_MS + 4 * MINUTE_MS, 'minutes'),
      })),
    }
  }
  return summary
}

/**
 * Minute step counts of `date` as Polar sends them: runs of equal counts collapsed into their first
 * minute (`YYYY-MM-DDTHH:MM`), so a gap longer than a minute repeats the previous count. Walking comes
 * in blocks of 3–40 minutes between 07:00 and 23:00 (about a third of them sitting still), sessions
 * that step (running, hiking) weigh eight times a walk, the night is 0. The expanded minutes add up to
 * `steps` exactly.
 */
export function stepSamplesFor(u: SimUser, date: string, steps: number): Array<{ steps: number; timestamp: string }> {
  const rng = rngFor(u.key, 'activity-steps', dayNumber(date))
  const base = midnight(date)
  const weights = new Array<number>(1440).fill(0)
  for (let minute = 7 * 60; minute < 23 * 60; ) {
    const length = rng.int(3, 40)
    const weight = rng.chance(0.35) ? 0 : round(rng.range(0.3, 2), 2)
    for (let m = minute; m < Math.min(minute + length, 23 * 60); m++) weights[m] = weight
    minute += length
  }
  for (const s of u.sessions(date)) {
    if (s.sport.sport !== 'RUNNING' && s.sport.detailed !== 'HIKING') continue
    const first = Math.max(0, Math.floor((s.startMs - base) / MINUTE_MS))
    const last = Math.min(1439, first + Math.floor(s.durationSeconds / 60))
    for (let m = first; m <= last; m++) weights[m] = 8
  }
  for (const i of u.busyIntervals(date)) {
    if (i.kind !== 'sleep') continue
    for (let m = Math.max(0, Math.floor((i.start - base) / MINUTE_MS)); m < Math.min(1440, Math.ceil((i.end - base) / MINUTE_MS)); m++) weights[m] = 0
  }
  const total = weights.reduce((sum, w) => sum + w, 0)
  const perMinute = weights.map((w) => (total > 0 ? Math.floor((steps * w) / total) : 0))
  // What rounding down left over goes to the busiest minute, so the day adds up to `steps`.
  const busiest = weights.indexOf(Math.max(...weights))
  perMinute[busiest] += steps - perMinute.reduce((sum, n) => sum + n, 0)
  const samples: Array<{ steps: number; timestamp: string }> = []
  perMinute.forEach((n, m) => {
    if (m === 0 || n !== perMinute[m - 1]) samples.push({ steps: n, timestamp: naive(base + m * MINUTE_MS, 'minutes') })
  })
  return samples
}

/** Continuous heart rate of `date` (5-minute samples, no training HR, a few 0 placeholders). */
export function heartRateFor(u: SimUser, date: string): WireContinuousHeartRateDay | null {
  if (u.isMissing(date)) return null
  const rng = rngFor(u.key, 'hr', dayNumber(date))
  const night = u.night(date)
  const resting = night?.restingHr ?? u.profile.restingHrBase
  const samples: Array<{ heart_rate: number; sample_time: string }> = []
  const base = midnight(date)
  const intervals = u.busyIntervals(date)
  for (let ms = base + 2 * MINUTE_MS + 8000; ms < base + DAY_MS; ms += 5 * MINUTE_MS) {
    const state = intervals.find((i) => ms >= i.start && ms < i.end)?.kind ?? 'awake'
    if (state === 'training' || rng.chance(0.02)) continue
    if (rng.chance(0.01)) {
      samples.push({ heart_rate: 0, sample_time: hhmmss(ms) })
      continue
    }
    const hour = (ms - base) / HOUR_MS
    const daytime = 14 + 8 * Math.sin(((hour - 7) / 15) * Math.PI)
    const hr = state === 'sleep' ? resting - 2 + rng.normal(0, 2) : resting + Math.max(6, daytime) + rng.normal(0, 6)
    samples.push({ heart_rate: Math.round(hr), sample_time: hhmmss(ms) })
  }
  return { polar_user: polarUserUrl(u), date, heart_rate_samples: samples }
}

const LEVELS = ['ALERTNESS_LEVEL_LOW', 'ALERTNESS_LEVEL_HIGH', 'ALERTNESS_LEVEL_VERY_HIGH', 'ALERTNESS_LEVEL_HIGH', 'ALERTNESS_LEVEL_LOW', 'ALERTNESS_LEVEL_HIGH', 'ALERTNESS_LEVEL_LOW', 'ALERTNESS_LEVEL_VERY_LOW', 'ALERTNESS_LEVEL_MINIMAL']

/** SleepWise alertness period that starts with the night ending on `date` (naive UTC times). */
export function alertnessFor(u: SimUser, date: string): WireSleepwiseAlertness | null {
  if (!u.profile.sleepwise) return null
  const night = u.night(date)
  if (!night || night.partial) return null
  const tz = u.profile.tzOffsetMinutes
  const rng = rngFor(u.key, 'alertness', dayNumber(date))
  const grade = round(clamp(sleepScore(u, night) / 10 + rng.normal(0, 0.5), 0, 10), 1)
  const nextNight = u.night(addDaysTo(date, 1))
  const periodEnd = nextNight?.startMs ?? midnight(date) + (21 * 60 + u.profile.bedtimeMinutes) * MINUTE_MS
  const hourly: NonNullable<WireSleepwiseAlertness['hourly_data']> = []
  let slot = Math.ceil(night.endMs / HOUR_MS) * HOUR_MS
  for (let i = 0; slot < periodEnd; i++, slot += HOUR_MS) {
    const start = i === 0 ? night.endMs + MINUTE_MS : slot - HOUR_MS
    hourly.push({
      validity: 'VALIDITY_ESTIMATE',
      alertness_level: LEVELS[Math.min(LEVELS.length - 1, Math.floor((i * LEVELS.length) / 16))],
      start_time: utcNaive(Math.floor(start / MINUTE_MS) * MINUTE_MS, tz),
      end_time: utcNaive(slot, tz),
    })
  }
  return {
    grade,
    grade_validity_seconds: 57_600,
    grade_type: 'GRADE_TYPE_PRIMARY',
    grade_classification:
      grade < 4 ? 'GRADE_CLASSIFICATION_WEAK' : grade < 6 ? 'GRADE_CLASSIFICATION_FAIR' : grade < 8 ? 'GRADE_CLASSIFICATION_STRONG' : 'GRADE_CLASSIFICATION_EXCELLENT',
    validity: 'VALIDITY_VALID',
    sleep_inertia: rng.pick(['SLEEP_INERTIA_NO_INERTIA', 'SLEEP_INERTIA_MILD', 'SLEEP_INERTIA_MILD', 'SLEEP_INERTIA_MODERATE']),
    sleep_type: 'SLEEP_TYPE_PRIMARY',
    result_type: 'ALERTNESS_TYPE_HISTORY',
    period_start_time: utcNaive(night.startMs, tz),
    period_end_time: utcNaive(periodEnd, tz),
    sleep_period_start_time: utcNaive(night.startMs + rng.int(0, 99) * 10, tz, true),
    sleep_period_end_time: utcNaive(night.endMs + rng.int(0, 99) * 10, tz, true),
    sleep_timezone_offset_minutes: tz,
    hourly_data: hourly,
  }
}

/** SleepWise circadian bedtime for the night ending on `date` (naive UTC times). */
export function bedtimeFor(u: SimUser, date: string): WireSleepwiseBedtime | null {
  if (!u.profile.sleepwise || u.isMissing(date)) return null
  const tz = u.profile.tzOffsetMinutes
  const rng = rngFor(u.key, 'bedtime', dayNumber(date))
  const preferredStart = midnight(date) - DAY_MS + (21 * 60 + u.profile.bedtimeMinutes + rng.int(-10, 10)) * MINUTE_MS + 30_000
  const preferredEnd = preferredStart + Math.round(u.profile.sleepNeedHours * 60) * MINUTE_MS
  return {
    validity: rng.chance(0.8) ? 'VALIDITY_VALID' : 'VALIDITY_ESTIMATE',
    quality: rng.pick([
      'CIRCADIAN_BEDTIME_QUALITY_CLEARLY_RECOGNIZABLE',
      'CIRCADIAN_BEDTIME_QUALITY_CLEARLY_RECOGNIZABLE',
      'CIRCADIAN_BEDTIME_QUALITY_CLEARLY_RECOGNIZABLE',
      'CIRCADIAN_BEDTIME_QUALITY_COMPROMISED',
      'CIRCADIAN_BEDTIME_QUALITY_WEAK',
    ]),
    result_type: 'CIRCADIAN_BEDTIME_TYPE_HISTORY',
    period_start_time: utcNaive(preferredStart, tz),
    period_end_time: utcNaive(preferredEnd, tz),
    preferred_sleep_period_start_time: utcNaive(preferredStart, tz),
    preferred_sleep_period_end_time: utcNaive(preferredEnd, tz),
    sleep_gate_start_time: utcNaive(preferredStart - 15 * MINUTE_MS, tz),
    sleep_gate_end_time: utcNaive(preferredStart + 15 * MINUTE_MS, tz),
    sleep_timezone_offset_minutes: tz,
  }
}
