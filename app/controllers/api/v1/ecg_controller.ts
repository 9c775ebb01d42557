import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageHeaders } from '#services/api/pagination'
import { listRequest } from '#services/records/record_list'
import { BiosensingService } from '#services/records/biosensing_service'
import EcgRecordTransformer from '#transformers/ecg_record_transformer'
import { listRecordsValidator } from '#validators/records'

@inject()
export default class EcgController {
  constructor(protected biosensing: BiosensingService) {}

  /** ECG tests of the window (`days`, default 30, or `from`/`to`), newest first, with samples; paged with `limit`/`cursor`. */
  async index(ctx: HttpContext) {
    const { params, ...query } = await ctx.request.validateUsing(listRecordsValidator)
    const list = await this.biosensing.listEcg(params.user_id, listRequest(query, 30))
    pageHeaders(ctx, list)
    return ctx.serialize(EcgRecordTransformer.transform(list.rows))
  }
}
