import { BaseTransformer } from '@adonisjs/core/transformers'
import type { UserCoverage } from '#services/admin/user_coverage_service'

/**
 * The per-user page's heat-map data: the window (`from` … `to`, `days` calendar days) and per data
 * type its label, days with data and `counts` (date → records, only dates with data).
 */
export default class UserCoverageTransformer extends BaseTransformer<UserCoverage> {
  toObject() {
    const { from, to, days, sources } = this.resource
    return {
      from,
      to,
      days,
      sources: sources.map((source) => ({
        key: source.key as string,
        label: source.label,
        days_with_data: source.daysWithData,
        counts: source.counts,
      })),
    }
  }
}
