import { inject } from '@adonisjs/core'
import NotFoundException from '#exceptions/not_found_exception'
import HeartRateDay from '#models/heart_rate_day'
import { parseJson } from '#services/records/units'
import { UserService } from '#services/user_service'

/** One continuous heart-rate sample: local time and beats per minute. */
export interface HeartRateSample {
  /** Local `YYYY-MM-DD HH:MM:SS`. */
  time: string
  bpm: number
}

/** A day of continuous heart rate as stored, placeholders dropped. */
export interface HeartRateSampleDay {
  date: string
  samples: HeartRateSample[]
}

/** A stored sample time (`HH:MM:SS` as the mapper keeps it, or a full local time) on `date`. */
function localTimeOf(date: string, time: unknown): string | null {
  if (typeof time !== 'string') return null
  if (/^\d{2}:\d{2}:\d{2}$/.test(time)) return `${date} ${time}`
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(time) ? time : null
}

/** Stored samples (`[{time, heart_rate}]`) of `date` with a value > 0, in time order. */
export function heartRateSamplesOf(date: string, json: string | null): HeartRateSample[] {
  const stored = parseJson<Array<{ time?: unknown; heart_rate?: unknown }>>(json)
  if (!Array.isArray(stored)) return []
  const samples: HeartRateSample[] = []
  for (const sample of stored) {
    const time = localTimeOf(date, sample?.time)
    const bpm = sample?.heart_rate
    if (time !== null && typeof bpm === 'number' && Number.isFinite(bpm) && bpm > 0) samples.push({ time, bpm: Math.round(bpm) })
  }
  return samples.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
}

@inject()
export class HeartRateSamplesService {
  constructor(protected users: UserService) {}

  /**
   * The continuous heart-rate samples of `date` (device-local times; Polar's 0/null placeholders
   * dropped, training sessions not included). NotFoundException (404) when no day is stored.
   */
  async forDate(userId: string, date: string): Promise<HeartRateSampleDay> {
    const user = await this.users.refOrFail(userId)
    const day = await HeartRateDay.query().select('date', 'samples').where('userId', user.id).where('date', date).first()
    if (!day) throw new NotFoundException(`No continuous heart rate for ${date}.`)
    return { date: day.date, samples: heartRateSamplesOf(day.date, day.samples) }
  }
}
