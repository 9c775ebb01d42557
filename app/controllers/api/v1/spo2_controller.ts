import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageHeaders } from '#services/api/pagination'
import { listRequest } from '#services/records/record_list'
import { BiosensingService } from '#services/records/biosensing_service'
import Spo2RecordTransformer from '#transformers/spo2_record_transformer'
import { listRecordsValidator } from '#validators/records'

@inject()
export default class Spo2Controller {
  constructor(protected biosensing: BiosensingService) {}

  /** SpO2 tests of the window (`days`, default 30, or `from`/`to`), newest first; paged with `limit`/`cursor`. */
  async index(ctx: HttpContext) {
    const { params, ...query } = await ctx.request.validateUsing(listRecordsValidator)
    const list = await this.biosensing.listSpo2(params.user_id, listRequest(query, 30))
    pageHeaders(ctx, list)
    return ctx.serialize(Spo2RecordTransformer.transform(list.rows))
  }
}
