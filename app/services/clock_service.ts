import { DateTime } from 'luxon'
import env from '#start/env'

/**
 * The only source of "now" and "today". Today is the current date in
 * APP_TIMEZONE (DESIGN §3); tests swap this service to pin the clock.
 */
export class ClockService {
  readonly zone = env.get('APP_TIMEZONE', 'UTC')
  #todayIso = ''
  /** Epoch ms at which #todayIso stops being today (the next midnight in the zone). */
  #todayUntil = 0

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
    const ms = Date.now()
    if (ms >= this.#todayUntil) {
      const today = this.today()
      this.#todayIso = today.toISODate()!
      this.#todayUntil = today.plus({ days: 1 }).toMillis()
    }
    return this.#todayIso
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
