import { Exception } from '@adonisjs/core/exceptions'

/** Missing, unknown or revoked API key (401). */
export default class InvalidApiKeyException extends Exception {
  static status = 401
  static code = 'E_INVALID_API_KEY'
  headers = { 'WWW-Authenticate': 'ApiKey header="X-API-Key"' }
}
