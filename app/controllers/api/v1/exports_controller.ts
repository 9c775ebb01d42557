import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageHeaders } from '#services/api/pagination'
import { listRequest } from '#services/records/record_list'
import { windowInput } from '#services/records/record_window'
import { ExportSummaryService } from '#services/export/export_summary_service'
import { CsvExportService, sendCsv } from '#services/export/csv_export_service'
import type { CsvExportKind } from '#services/export/csv_tables'
import { JsonlExportService } from '#services/export/jsonl_export_service'
import { TakeoutService } from '#services/export/takeout_service'
import ExportSummaryTransformer from '#transformers/export_summary_transformer'
import { exportSummaryValidator, exportValidator, jsonlExportValidator, takeoutValidator } from '#validators/export'

@inject()
export default class ExportsController {
  constructor(
    protected summaries: ExportSummaryService,
    protected csvExports: CsvExportService,
    protected jsonlExports: JsonlExportService,
    protected takeouts: TakeoutService
  ) {}

  /** Record counts of the window (`days`, default 30, or `from`/`to`). */
  async summary({ request, serialize }: HttpContext) {
    const { params, ...query } = await request.validateUsing(exportSummaryValidator)
    return serialize(ExportSummaryTransformer.transform(await this.summaries.summarize(params.user_id, windowInput(query, 30))))
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

  /**
   * `{type}.jsonl`: a catalogued type's stored rows of the window (`days`, default 30, or
   * `from`/`to`), oldest first; paged with `limit`/`cursor`.
   */
  async jsonl(ctx: HttpContext) {
    const { request, response } = ctx
    const { params, ...query } = await request.validateUsing(jsonlExportValidator)
    const file = await this.jsonlExports.open(params.type, params.user_id, listRequest(query, 30))
    pageHeaders(ctx, file)
    response.header('Content-Type', 'application/x-ndjson')
    response.header('Content-Disposition', `attachment; filename="${file.filename}"`)
    response.stream(file.stream)
  }

  /** The whole stored history as a streamed ZIP (`raw=true` adds the raw-payload archive). */
  async takeout({ request, response }: HttpContext) {
    const { params, raw = false } = await request.validateUsing(takeoutValidator)
    const takeout = await this.takeouts.open(params.user_id, { raw })
    response.header('Content-Type', 'application/zip')
    response.header('Content-Disposition', `attachment; filename="${takeout.filename}"`)
    response.header('Cache-Control', 'no-store')
    response.stream(takeout.stream)
  }

  /** Streams one CSV file as an attachment (days default 30 or `from`/`to`, oldest row first; `limit`/`cursor` pages). */
  protected async csv(ctx: HttpContext, kind: CsvExportKind) {
    const { request, response } = ctx
    const { params, ...query } = await request.validateUsing(exportValidator)
    const file = await this.csvExports.open(kind, params.user_id, listRequest(query, 30))
    pageHeaders(ctx, file)
    sendCsv(response, file)
  }
}
