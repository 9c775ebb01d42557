import { BaseTransformer } from '@adonisjs/core/transformers'
import type { ExportSummary } from '#services/export/export_summary_service'

/** Spec "Export summary": window, counts of six series and their sum. */
export default class ExportSummaryTransformer extends BaseTransformer<ExportSummary> {
  toObject() {
    const summary = this.resource
    const counts = summary.counts
    return {
      user_id: summary.userId,
      days: summary.days,
      from_date: summary.from,
      to_date: summary.to,
      record_counts: {
        sleep: counts.sleep,
        activity: counts.activity,
        recharge: counts.recharge,
        cardio_load: counts.cardio_load,
        heart_rate: counts.heart_rate,
        exercises: counts.exercises,
      },
      total_records: Object.values(counts).reduce((sum, count) => sum + count, 0),
    }
  }
}
