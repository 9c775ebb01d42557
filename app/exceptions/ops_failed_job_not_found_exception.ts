import { Exception } from '@adonisjs/core/exceptions'

/** Retry of a failed-job id that is not (or no longer) in the failed jobs list (404). */
export default class OpsFailedJobNotFoundException extends Exception {
  static status = 404
  static code = 'E_OPS_FAILED_JOB_NOT_FOUND'
}
