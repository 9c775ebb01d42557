import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { CsvExportService, sendCsv } from '#services/export/csv_export_service'
import { TakeoutService } from '#services/export/takeout_service'
import { adminExportValidator } from '#validators/admin'
import { adminTakeoutValidator } from '#validators/export'

/**
 * /admin/users/:user/export/:file?days= and /admin/users/:user/takeout: the API's CSV exports and
 * takeout for a logged-in admin (a browser link cannot send an X-API-Key header).
 */
@inject()
export default class ExportsController {
  constructor(
    protected csvExports: CsvExportService,
    protected takeouts: TakeoutService
  ) {}

  async show({ request, response }: HttpContext) {
    const { params, days = 30 } = await request.validateUsing(adminExportValidator)
    const kind = params.file.replace(/\.csv$/, '') as 'sleep' | 'activity' | 'recharge' | 'cardio-load'
    const file = await this.csvExports.open(kind, params.user, days)
    sendCsv(response, file)
  }

  /** The user's takeout ZIP, streamed by the same service as the API's. */
  async takeout({ request, response }: HttpContext) {
    const { params, raw = false } = await request.validateUsing(adminTakeoutValidator)
    const takeout = await this.takeouts.open(params.user, { raw })
    response.header('Content-Type', 'application/zip')
    response.header('Content-Disposition', `attachment; filename="${takeout.filename}"`)
    response.header('Cache-Control', 'no-store')
    response.stream(takeout.stream)
  }
}
