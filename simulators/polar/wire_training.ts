import { formatIsoDuration } from '#services/polar/durations'
import type { WireCardioLoad, WireExercise } from '#services/polar/wire_types'
import { clamp, rngFor, round } from '#simulators/polar/random'
import { MINUTE_MS, addDaysTo, dayNumber, naive } from '#simulators/polar/sim_time'
import type { SimSession, SimUser } from '#simulators/polar/user_model'
import { polarUserUrl } from '#simulators/polar/wire_days'
import { addStreams } from '#simulators/polar/wire_exercise_streams'

/** Detail flags of `GET /v3/exercises/{id}`. */
export interface ExerciseFlags {
  zones?: boolean
  samples?: boolean
  route?: boolean
}

/** Exercise summary as `GET /v3/exercises` lists it; detail flags add zones, samples, route. */
export function exerciseWire(u: SimUser, s: SimSession, flags: ExerciseFlags = {}): WireExercise {
  const p = u.profile
  const rng = rngFor(u.key, `exercise-${s.id}`, 0)
  const tz = p.tzOffsetMinutes
  const uploadMs = s.startMs - tz * MINUTE_MS + s.durationSeconds * 1000 + rng.int(5, 90) * MINUTE_MS
  const isRun = s.sport.sport === 'RUNNING'
  const out: WireExercise = {
    'id': s.id,
    'upload_time': `${naive(uploadMs)}${rng.chance(0.5) ? '.000' : ''}Z`,
    'polar_user': polarUserUrl(u),
    'device': p.device,
    'device_id': p.deviceId,
    'start_time': naive(s.startMs),
    'start_time_utc_offset': tz,
    'duration': rng.chance(0.35) ? formatIsoDuration(s.durationSeconds, 'seconds') : formatIsoDuration(s.durationSeconds),
    'calories': s.calories,
    'heart_rate': { average: s.avgHr, maximum: s.maxHr },
    'sport': s.sport.sport,
    'has_route': s.sport.outdoor,
    'detailed_sport_info': s.sport.detailed,
  }
  if (s.distanceMeters !== null) out.distance = s.distanceMeters
  if (!rng.chance(0.06)) out.training_load = s.load
  if (isRun) out['running-index'] = clamp(Math.round(38 + (p.hrvBase - 28) / 4 + rng.normal(0, 2)), 25, 75)
  if (p.device.includes('Vantage') || p.device.includes('Grit')) {
    const fat = rng.int(20, 70)
    const protein = rng.int(1, 4)
    out.fat_percentage = fat
    out.carbohydrate_percentage = 100 - fat - protein
    out.protein_percentage = protein
  }
  out.training_load_pro = {
    'date': s.date,
    'cardio-load': s.load,
    'muscle-load': round(s.sport.detailed === 'STRENGTH_TRAINING' ? s.load * 1.4 : s.load * 0.3, 1),
    'perceived-load': -1,
    'cardio-load-interpretation': s.load < 30 ? 'LOW' : s.load < 80 ? 'MEDIUM' : s.load < 140 ? 'HIGH' : 'VERY_HIGH',
    'muscle-load-interpretation': s.sport.detailed === 'STRENGTH_TRAINING' ? 'MEDIUM' : 'NOT_AVAILABLE',
    'perceived-load-interpretation': 'NOT_AVAILABLE',
    'user-rpe': 'UNKNOWN',
  }
  if (flags.zones) out.heart_rate_zones = zonesFor(u, s)
  addStreams(out, u, s, flags)
  return out
}

/**
 * Five heart-rate zones (50–100 % of max HR, kebab-case keys) whose times sum to the duration.
 * Some users' devices number them from 0, as live answers do (polar-flow-server 1.5.2), the
 * others from 1 as the spec's example.
 */
function zonesFor(u: SimUser, s: SimSession): NonNullable<WireExercise['heart_rate_zones']> {
  const max = u.profile.maxHr
  const centre = clamp((s.avgHr / max - 0.5) * 10, 0, 4.5)
  const firstIndex = rngFor(u.key, 'zone-numbering', 0).chance(0.5) ? 0 : 1
  const weights = [0, 1, 2, 3, 4].map((i) => Math.exp(-((i + 0.5 - centre) ** 2) / 1.5))
  const sum = weights.reduce((a, b) => a + b, 0)
  let left = Math.round(s.durationSeconds)
  return weights.map((w, i) => {
    const seconds = i === 4 ? left : Math.min(left, Math.round((s.durationSeconds * w) / sum))
    left -= seconds
    return {
      'index': i + firstIndex,
      'lower-limit': Math.round(max * (0.5 + i * 0.1)),
      'upper-limit': Math.round(max * (0.6 + i * 0.1)),
      'in-zone': formatIsoDuration(seconds),
    }
  })
}

/** Every session whose start date lies in `from`…`to`, oldest first. */
export function sessionsBetween(u: SimUser, from: string, to: string): SimSession[] {
  const out: SimSession[] = []
  for (let d = from; d <= to; d = addDaysTo(d, 1)) out.push(...u.sessions(d))
  return out
}

/** Cardio load of `date`: load that day, strain (7-day mean), tolerance (28-day mean), ratio, status. */
export function cardioFor(u: SimUser, date: string): WireCardioLoad {
  const rng = rngFor(u.key, 'cardio', dayNumber(date))
  if (u.profile.empty || rng.chance(0.03)) {
    return {
      cardio_load_level: { very_low: 0.0, low: 0.0, medium: 0.0, high: 0.0, very_high: 0.0 },
      date,
      cardio_load_status: 'LOAD_STATUS_NOT_AVAILABLE',
      cardio_load_ratio: -1.0,
      cardio_load: -1.0,
      strain: 0.0,
      tolerance: -1.0,
    }
  }
  let strain = 0
  let tolerance = 0
  for (let i = 0; i < 28; i++) {
    const load = u.dailyLoad(addDaysTo(date, -i))
    if (i < 7) strain += load
    tolerance += load
  }
  strain = round(strain / 7, 1)
  tolerance = round(tolerance / 28, 1)
  const ratio = tolerance > 0 ? round(strain / tolerance, 2) : -1.0
  const status =
    ratio < 0
      ? 'LOAD_STATUS_NOT_AVAILABLE'
      : ratio < 0.8
        ? 'DETRAINING'
        : ratio < 1.0
          ? 'MAINTAINING'
          : ratio < 1.3
            ? 'PRODUCTIVE'
            : ratio < 1.5
              ? 'PRODUCTIVE_ALMOST_OVERREACHING'
              : 'OVERREACHING'
  const typical = u.typicalLoad()
  return {
    date,
    cardio_load_status: status,
    cardio_load: round(u.dailyLoad(date), 1),
    strain,
    tolerance,
    cardio_load_ratio: ratio,
    cardio_load_level:
      tolerance > 0
        ? {
            very_low: round(typical * 0.2, 1),
            low: round(typical * 0.5, 1),
            medium: round(typical * 0.9, 1),
            high: round(typical * 1.3, 1),
            very_high: round(typical * 1.7, 1),
          }
        : {},
  }
}
