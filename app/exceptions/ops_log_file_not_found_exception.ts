import { Exception } from '@adonisjs/core/exceptions'

/**
 * A log file name that is not one of the files listed in LOG_DIR (including every traversal
 * attempt): 404, so the response never reveals whether some other path exists.
 */
export default class OpsLogFileNotFoundException extends Exception {
  static status = 404
  static code = 'E_OPS_LOG_FILE_NOT_FOUND'
}
