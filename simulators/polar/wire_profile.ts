import { formatIsoDuration } from '#services/polar/durations'
import { clamp, rngFor, round } from '#simulators/polar/random'
import { addDaysTo, dayNumber } from '#simulators/polar/sim_time'
import type { SimUser } from '#simulators/polar/user_model'

/** Chance per day that the user edits their physical settings in Flow (about once a month). */
const CHANGE_CHANCE = 1 / 25

/** How far back `physicalInfoFor` looks for the latest edit before falling back to `created`. */
const LOOKBACK_DAYS = 730

/**
 * Day of the latest settings edit on or before `today` (null: never edited since `created`). Edits
 * are drawn per user and calendar day, so a date's answer never changes when "today" moves.
 */
export function physicalInfoChangeDay(u: SimUser, today: string, createdDate: string): string | null {
  for (let back = 0; back < LOOKBACK_DAYS; back++) {
    const date = addDaysTo(today, -back)
    if (date <= createdDate) return null
    if (rngFor(u.key, 'physical-change', dayNumber(date)).chance(CHANGE_CHANCE)) return date
  }
  return null
}

/**
 * `GET /v3/users/physical-info` (reference §1.6) as of `today`: the user's current physical settings,
 * snake_case, consistent with the `/v3/users/{id}` object (height, birthday, gender) and the profile
 * (maximum / resting heart rate, sleep goal). The user edits them about once a month (weight,
 * resting heart rate, VO2max, thresholds drift a little), each edit stamping `modified`; `created`
 * never moves. Profile data: served even for accounts without data.
 */
export function physicalInfoFor(u: SimUser, today: string): Record<string, unknown> {
  const p = u.profile
  const id = p.polarUserId
  const rng = rngFor(u.key, 'physical-info', 0)
  const created = `20${22 + (id % 3)}-0${1 + (id % 9)}-1${id % 10}T0${id % 10}:1${id % 6}:00Z`
  const changed = physicalInfoChangeDay(u, today, created.slice(0, 10))
  const edit = rngFor(u.key, 'physical-edit', changed === null ? 0 : dayNumber(changed))
  const drift = changed === null ? 0 : 1
  const restingHr = Math.round(p.restingHrBase + drift * edit.normal(0, 1.5))
  const reserve = p.maxHr - restingHr
  return {
    weight: round(55 + (id % 35) + drift * edit.normal(0, 1.2), 1),
    height: 158 + (id % 35),
    created,
    modified: changed === null ? created : `${changed}T${String(6 + edit.int(0, 15)).padStart(2, '0')}:${String(edit.int(0, 59)).padStart(2, '0')}:00Z`,
    birthday: `19${70 + (id % 30)}-0${1 + (id % 9)}-1${id % 10}`,
    gender: id % 2 === 0 ? 'FEMALE' : 'MALE',
    maximum_heart_rate: p.maxHr,
    resting_heart_rate: restingHr,
    aerobic_threshold: Math.round(restingHr + 0.65 * reserve),
    anaerobic_threshold: Math.round(restingHr + 0.85 * reserve),
    vo2_max: clamp(Math.round(15 * (p.maxHr / p.restingHrBase) + drift * edit.normal(0, 1)), 30, 75),
    weight_source: rng.pick(['SOURCE_USER', 'SOURCE_USER', 'SOURCE_MEASURED', 'SOURCE_DEFAULT']),
    training_background: rng.pick(['OCCASIONAL', 'REGULAR', 'FREQUENT', 'HEAVY']),
    typical_day: rng.pick(['MOSTLY_SITTING', 'MOSTLY_STANDING', 'MOSTLY_MOVING']),
    sleep_goal: formatIsoDuration(Math.round(p.sleepNeedHours * 3600)),
  }
}
