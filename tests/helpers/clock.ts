import app from '@adonisjs/core/services/app'
import { DateTime } from 'luxon'
import env from '#start/env'
import { ClockService } from '#services/clock_service'

/** A ClockService whose "now" stays at one instant until it is moved. */
export class PinnedClock extends ClockService {
  readonly zone: string

  constructor(
    protected instant: string,
    zone?: string
  ) {
    super()
    this.zone = zone ?? env.get('APP_TIMEZONE', 'UTC')
  }

  now(): DateTime {
    return DateTime.fromISO(this.instant, { zone: this.zone })
  }

  /** Moves "now" to another ISO instant (read in the clock's zone when it has no offset). */
  set(instant: string) {
    this.instant = instant
  }
}

/** The restore step of a pin (a Japa setup hook runs it as the cleanup), with the pinned clock. */
export type ClockPin = (() => void) & { clock: PinnedClock }

/**
 * Pins "now" for every service resolved from the container (the HTTP server's
 * too) at an ISO instant; an instant without offset is read in `zone`, which
 * defaults to APP_TIMEZONE. Returns the restore step, which also carries the
 * clock so a test can move it (`pin.clock.set(...)`).
 */
export function pinClock(instant: string, zone?: string): ClockPin {
  const clock = new PinnedClock(instant, zone)
  app.container.swap(ClockService, () => clock)
  return Object.assign(() => app.container.restore(ClockService), { clock })
}

/** A ClockService that starts at an instant and then runs at wall-clock speed. */
export class FlowingClock extends PinnedClock {
  readonly #startedAt = Date.now()

  now(): DateTime {
    return super.now().plus(Date.now() - this.#startedAt)
  }
}

/**
 * Like {@link pinClock}, but time goes on from the instant (for work that waits on the clock, such
 * as a rate-limit window resetting); the restore step carries the clock.
 */
export function flowClock(instant: string, zone?: string): ClockPin {
  const clock = new FlowingClock(instant, zone)
  app.container.swap(ClockService, () => clock)
  return Object.assign(() => app.container.restore(ClockService), { clock })
}
