import { Exception } from '@adonisjs/core/exceptions'

/** A takeout with `raw=true` from an installation that keeps no raw-payload archive (422). */
export default class RawArchiveUnavailableException extends Exception {
  static status = 422
  static code = 'E_RAW_ARCHIVE_UNAVAILABLE'

  constructor() {
    super('raw archive not available')
  }
}
