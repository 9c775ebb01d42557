import { PolarRateLimitError } from '#services/polar/errors/polar_rate_limit_error'

/**
 * HRVault held a call back because its class of work has used its share of a Polar rate-limit
 * window (PolarBudgetService); nothing was sent. A PolarRateLimitError, so a sync stops and is
 * recorded as `rate_limited` the same way, but it never sets the shared "Polar refuses calls"
 * marker: work of a higher class (webhook events) may still run. `retryAt` is epoch milliseconds
 * (ClockService) when the window resets.
 */
export class PolarBudgetExhaustedError extends PolarRateLimitError {
  static code = 'E_POLAR_BUDGET_EXHAUSTED'

  /** Epoch milliseconds at which the window that refused the call resets. */
  declare retryAt: number
  /** The class of work that was refused (`event`, `backfill`, `manual`, `scheduled`). */
  declare kind: string
  /** The window that refused it: `short` (15 min) or `long` (24 h). */
  declare window: string

  constructor(kind: string, window: string, retryAt: number, now: number) {
    const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000))
    super('the shared AccessLink budget', seconds)
    this.message = `Polar budget of ${kind} work in the ${window} window is used up; retry in ${seconds} s`
    this.retryAt = retryAt
    this.kind = kind
    this.window = window
  }
}
