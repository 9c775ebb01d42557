import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ExportSummaryService } from '#services/export/export_summary_service'
import { CsvExportService } from '#services/export/csv_export_service'
import type { CsvExportKind } from '#services/export/csv_tables'
import ExportSummaryTransformer from '#transformers/export_summary_transformer'
import { exportValidator } from '#validators/export'

@inject()
export default class ExportsController {
  constructor(
    protected summaries: ExportSummaryService,
    protected csvExports: CsvExportService
  ) {}

  /** Record counts of the last `days` calendar days (default 30). */
  async summary({ request, serialize }: HttpContext) {
    const { params, days = 30 } = await request.validateUsing(exportValidator)
    return serialize(ExportSummaryTransformer.transform(await this.summaries.summarize(params.user_id, days)))
  }

  /** sleep.csv */
  async sleep(ctx: HttpContext) {
    return this.csv(ctx, 'sleep')
  }

  /** activity.csv */
  async activity(ctx: HttpContext) {
    return this.csv(ctx, 'activity')
  }

  /** recharge.csv */
  async recharge(ctx: HttpContext) {
    return this.csv(ctx, 'recharge')
  }

  /** cardio-load.csv */
  async cardioLoad(ctx: HttpContext) {
    return this.csv(ctx, 'cardio-load')
  }

  /** Streams one CSV file as an attachment (days default 30, oldest row first). */
  protected async csv({ request, response }: HttpContext, kind: CsvExportKind) {
    const { params, days = 30 } = await request.validateUsing(exportValidator)
    const file = await this.csvExports.open(kind, params.user_id, days)
    response.header('Content-Type', 'text/csv; charset=utf-8')
    response.header('Content-Disposition', `attachment; filename="${file.filename}"`)
    response.stream(file.stream)
  }
}
