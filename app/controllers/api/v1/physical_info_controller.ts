import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { PhysicalInfoService } from '#services/records/physical_info_service'
import PhysicalInfoTransformer from '#transformers/physical_info_transformer'
import { showPhysicalInfoValidator } from '#validators/physical_info'

@inject()
export default class PhysicalInfoController {
  constructor(protected physicalInfo: PhysicalInfoService) {}

  /** The current physical settings and every stored version, newest first (no `days` window). */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showPhysicalInfoValidator)
    return serialize(PhysicalInfoTransformer.transform(await this.physicalInfo.history(params.user_id)))
  }
}
