import { BaseTransformer } from '@adonisjs/core/transformers'
import type { PolarBudget } from '#services/sync/polar_budget_service'

/** The Polar page's budget card: each rate-limit window's use, limit and reset. */
export default class PolarBudgetTransformer extends BaseTransformer<PolarBudget> {
  toObject() {
    const budget = this.resource
    return {
      registered_users: budget.registeredUsers,
      observed_at: budget.observedAt,
      windows: budget.windows.map((window) => ({
        window: window.window,
        length_seconds: window.lengthSeconds,
        used: window.used,
        limit: window.limit,
        limit_source: window.limitSource,
        resets_at: window.resetsAt,
        resets_in_seconds: window.resetsInSeconds,
      })),
    }
  }
}
