import { Exception } from '@adonisjs/core/exceptions'

/** Dashboard API call without an admin session (JSON 401, never a redirect). */
export default class AdminUnauthenticatedException extends Exception {
  static status = 401
  static code = 'E_ADMIN_UNAUTHENTICATED'

  constructor() {
    super('Log in to the admin UI to use the dashboard API.')
  }
}
