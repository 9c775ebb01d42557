import { BaseTransformer } from '@adonisjs/core/transformers'
import type { ConnectResult } from '#services/polar/polar_connect_service'

/**
 * The Polar page's one-time notice after a successful connect: the user, their
 * user-scoped API key (shown this once) and the back-fill job to follow.
 */
export default class PolarConnectionTransformer extends BaseTransformer<Extract<ConnectResult, { ok: true }>> {
  toObject() {
    const connected = this.resource
    return {
      user_id: connected.userId,
      api_key: connected.apiKey,
      job_id: connected.jobId,
      newly_registered: connected.newlyRegistered,
    }
  }
}
