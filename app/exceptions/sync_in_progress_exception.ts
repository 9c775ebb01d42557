import { Exception } from '@adonisjs/core/exceptions'

/** A sync of this user is already running in some process (DESIGN §3: 409). */
export default class SyncInProgressException extends Exception {
  static status = 409
  static code = 'E_SYNC_IN_PROGRESS'

  constructor(userId: string) {
    super(`A sync is already running for user "${userId}". Try again when it has finished.`)
  }
}
