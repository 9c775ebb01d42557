import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { BiosensingService } from '#services/records/biosensing_service'
import BodyTemperatureTransformer from '#transformers/body_temperature_transformer'
import { listRecordsValidator } from '#validators/records'

@inject()
export default class BodyTemperatureController {
  constructor(protected biosensing: BiosensingService) {}

  /** Body-temperature periods of the last `days` calendar days (default 30), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 30 } = await request.validateUsing(listRecordsValidator)
    return serialize(BodyTemperatureTransformer.transform(await this.biosensing.bodyTemperature(params.user_id, days)))
  }
}
