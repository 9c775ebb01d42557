import { Exception } from '@adonisjs/core/exceptions'

/** A webhook event without a valid `Polar-Webhook-Signature`: 401, and nothing is fetched. */
export default class WebhookSignatureException extends Exception {
  static status = 401
  static code = 'E_WEBHOOK_SIGNATURE'

  constructor() {
    super('The Polar-Webhook-Signature header is missing or does not match the body.')
  }
}
