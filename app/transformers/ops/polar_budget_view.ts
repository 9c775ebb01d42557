import type { PolarBudget } from '#services/sync/polar_budget_service'

/** The installation's Polar request budget as the operations API shows it (queue and health answers). */
export interface PolarBudgetView {
  registered_users: number
  windows: Array<{ window: string; used: number; limit: number; limit_source: string; resets_in_seconds: number }>
}

export function polarBudgetView(budget: PolarBudget): PolarBudgetView {
  return {
    registered_users: budget.registeredUsers,
    windows: budget.windows.map((w) => ({
      window: w.window,
      used: w.used,
      limit: w.limit,
      limit_source: w.limitSource,
      resets_in_seconds: w.resetsInSeconds,
    })),
  }
}
