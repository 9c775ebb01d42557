import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { BiosensingService } from '#services/records/biosensing_service'
import EcgRecordTransformer from '#transformers/ecg_record_transformer'
import { listRecordsValidator } from '#validators/records'

@inject()
export default class EcgController {
  constructor(protected biosensing: BiosensingService) {}

  /** ECG tests of the last `days` calendar days (default 30), newest first, with samples. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 30 } = await request.validateUsing(listRecordsValidator)
    return serialize(EcgRecordTransformer.transform(await this.biosensing.ecg(params.user_id, days)))
  }
}
