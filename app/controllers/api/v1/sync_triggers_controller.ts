import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { SyncTriggerService, maxTriggerDays } from '#services/sync/sync_trigger_service'
import SyncResultTransformer from '#transformers/sync_result_transformer'
import SyncRunTransformer from '#transformers/sync_run_transformer'
import { triggerSyncValidator } from '#validators/sync'

@inject()
export default class SyncTriggersController {
  constructor(protected syncs: SyncTriggerService) {}

  /**
   * Syncs the user now with the header's Polar token and answers with the sync result; with
   * `wait=false` queues the sync and answers 202 with the queued run and its `Location`.
   */
  async handle({ request, response, serialize, apiKey }: HttpContext) {
    const meta = { maxDays: maxTriggerDays(apiKey) }
    const { params, days, wait, headers } = await request.validateUsing(triggerSyncValidator, { meta })
    if (wait === false) {
      const run = await this.syncs.enqueue(params.user_id, headers['x-provider-token'], days)
      response.status(202)
      response.header('Location', `/api/v1/users/${encodeURIComponent(params.user_id)}/sync/runs/${run.id}`)
      return serialize(SyncRunTransformer.transform({ run, userId: params.user_id }))
    }
    const outcome = await this.syncs.trigger(params.user_id, headers['x-provider-token'], days)
    return serialize(SyncResultTransformer.transform(outcome))
  }
}
