import { DateTime } from 'luxon'
import env from '#start/env'

/** Today's ISO date per zone and the epoch ms of the next midnight there, when it stops being today. */
const todays = new Map<string, { iso: string; until: number }>()

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

  /**
   * Today as `YYYY-MM-DD`, computed once per day (the read cache keys every request on it). A
   * subclass with its own `now()` (a pinned test clock) is asked every time.
   */
  todayIso(): string {
    if (this.now !== ClockService.prototype.now) return this.today().toISODate()!
    // Per zone and process (the container's clock is one per process; `new ClockService()` is not).
    let known = todays.get(this.zone)
    if (!known || Date.now() >= known.until) {
      const today = this.today()
      todays.set(this.zone, (known = { iso: today.toISODate()!, until: today.plus({ days: 1 }).toMillis() }))
    }
    return known.iso
  }

  /** ISO dates `today-(days-1)` … `today`: exactly `days` calendar days. */
  window(days: number): { from: string; to: string } {
    const to = this.todayIso()
    return { from: minusDays(to, days - 1), to }
  }
}

/** `iso` (YYYY-MM-DD) minus `days` calendar days: date arithmetic, independent of any zone. */
function minusDays(iso: string, days: number): string {
  const [year, month, day] = iso.split('-').map(Number)
  return new Date(Date.UTC(year, month - 1, day - days)).toISOString().slice(0, 10)
}
