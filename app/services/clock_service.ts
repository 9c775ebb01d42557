import { DateTime } from 'luxon'
import env from '#start/env'

/**
 * The only source of "now" and "today". Today is the current date in
 * APP_TIMEZONE (DESIGN §3); tests swap this service to pin the clock.
 */
export class ClockService {
  readonly zone = env.get('APP_TIMEZONE', 'UTC')

  /** Current instant in APP_TIMEZONE. */
  now(): DateTime {
    return DateTime.now().setZone(this.zone)
  }

  /** Start of the current day in APP_TIMEZONE. */
  today(): DateTime {
    return this.now().startOf('day')
  }

  /** ISO dates `today-(days-1)` … `today`: exactly `days` calendar days. */
  window(days: number): { from: string; to: string } {
    const today = this.today()
    return { from: today.minus({ days: days - 1 }).toISODate()!, to: today.toISODate()! }
  }
}
