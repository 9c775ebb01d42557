import { formatIsoDuration } from '#services/polar/durations'
import { clamp, rngFor } from '#simulators/polar/random'
import type { SimUser } from '#simulators/polar/user_model'

/**
 * `GET /v3/users/physical-info` (reference §1.6): the user's current physical settings, snake_case,
 * consistent with the `/v3/users/{id}` object (weight, height, birthday, gender) and the profile
 * (maximum / resting heart rate, sleep goal). Profile data: served even for accounts without data.
 */
export function physicalInfoFor(u: SimUser): Record<string, unknown> {
  const p = u.profile
  const id = p.polarUserId
  const rng = rngFor(u.key, 'physical-info', 0)
  const reserve = p.maxHr - p.restingHrBase
  const created = `20${22 + (id % 3)}-0${1 + (id % 9)}-1${id % 10}T0${id % 10}:1${id % 6}:00Z`
  return {
    weight: 55 + (id % 35),
    height: 158 + (id % 35),
    created,
    modified: created,
    birthday: `19${70 + (id % 30)}-0${1 + (id % 9)}-1${id % 10}`,
    gender: id % 2 === 0 ? 'FEMALE' : 'MALE',
    maximum_heart_rate: p.maxHr,
    resting_heart_rate: p.restingHrBase,
    aerobic_threshold: Math.round(p.restingHrBase + 0.65 * reserve),
    anaerobic_threshold: Math.round(p.restingHrBase + 0.85 * reserve),
    vo2_max: clamp(Math.round(15 * (p.maxHr / p.restingHrBase)), 30, 75),
    weight_source: rng.pick(['SOURCE_USER', 'SOURCE_USER', 'SOURCE_MEASURED', 'SOURCE_DEFAULT']),
    training_background: rng.pick(['OCCASIONAL', 'REGULAR', 'FREQUENT', 'HEAVY']),
    typical_day: rng.pick(['MOSTLY_SITTING', 'MOSTLY_STANDING', 'MOSTLY_MOVING']),
    sleep_goal: formatIsoDuration(Math.round(p.sleepNeedHours * 3600)),
  }
}
