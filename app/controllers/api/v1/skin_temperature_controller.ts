import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { BiosensingService } from '#services/records/biosensing_service'
import SkinTemperatureTransformer from '#transformers/skin_temperature_transformer'
import { listRecordsValidator } from '#validators/records'

@inject()
export default class SkinTemperatureController {
  constructor(protected biosensing: BiosensingService) {}

  /** Nightly skin temperatures of the last `days` calendar days (default 30), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 30 } = await request.validateUsing(listRecordsValidator)
    return serialize(SkinTemperatureTransformer.transform(await this.biosensing.skinTemperature(params.user_id, days)))
  }
}
