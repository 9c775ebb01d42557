import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { BiosensingService } from '#services/records/biosensing_service'
import Spo2RecordTransformer from '#transformers/spo2_record_transformer'
import { listRecordsValidator } from '#validators/records'

@inject()
export default class Spo2Controller {
  constructor(protected biosensing: BiosensingService) {}

  /** SpO2 tests of the last `days` calendar days (default 30), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 30 } = await request.validateUsing(listRecordsValidator)
    return serialize(Spo2RecordTransformer.transform(await this.biosensing.spo2(params.user_id, days)))
  }
}
