import { Exception } from '@adonisjs/core/exceptions'

/** A signed event that lacks what its name needs (a date, an exercise id, a range): 422. */
export default class InvalidWebhookEventException extends Exception {
  static status = 422
  static code = 'E_INVALID_WEBHOOK_EVENT'
}
