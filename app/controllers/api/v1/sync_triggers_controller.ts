import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { SyncTriggerService, maxTriggerDays } from '#services/sync/sync_trigger_service'
import SyncResultTransformer from '#transformers/sync_result_transformer'
import { triggerSyncValidator } from '#validators/sync'

@inject()
export default class SyncTriggersController {
  constructor(protected syncs: SyncTriggerService) {}

  /** Syncs the user now with the header's Polar token and answers with the sync result. */
  async handle({ request, serialize, apiKey }: HttpContext) {
    const meta = { maxDays: maxTriggerDays(apiKey) }
    const { params, days, headers } = await request.validateUsing(triggerSyncValidator, { meta })
    const outcome = await this.syncs.trigger(params.user_id, headers['x-provider-token'], days)
    return serialize(SyncResultTransformer.transform(outcome))
  }
}
