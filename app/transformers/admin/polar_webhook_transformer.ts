import { BaseTransformer } from '@adonisjs/core/transformers'
import type { WebhookStatus } from '#services/polar/polar_webhook_service'

/** The Polar page's push-sync card: what Polar has registered and what this side knows; never the secret. */
export default class PolarWebhookTransformer extends BaseTransformer<WebhookStatus & { defaultUrl: string }> {
  toObject() {
    const status = this.resource
    return {
      default_url: status.defaultUrl,
      registered: status.remote !== null,
      url: status.remote?.url ?? status.url,
      events: status.remote?.events ?? [],
      active: status.remote?.active ?? false,
      secret_stored: status.secretStored,
      remote_error: status.remoteError,
      last_event: status.lastEvent
        ? { event: status.lastEvent.event, received_at: status.lastEvent.receivedAt }
        : null,
    }
  }
}
