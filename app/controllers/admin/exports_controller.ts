import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { CsvExportService } from '#services/export/csv_export_service'
import { adminExportValidator } from '#validators/admin'

/**
 * /admin/users/:user/export/:file?days=: the API's CSV exports for a
 * logged-in admin (a browser link cannot send an X-API-Key header).
 */
@inject()
export default class ExportsController {
  constructor(protected csvExports: CsvExportService) {}

  async show({ request, response }: HttpContext) {
    const { params, days = 30 } = await request.validateUsing(adminExportValidator)
    const kind = params.file.replace(/\.csv$/, '') as 'sleep' | 'activity' | 'recharge' | 'cardio-load'
    const file = await this.csvExports.open(kind, params.user, days)
    response.header('Content-Type', 'text/csv; charset=utf-8')
    response.header('Content-Disposition', `attachment; filename="${file.filename}"`)
    response.stream(file.stream)
  }
}
