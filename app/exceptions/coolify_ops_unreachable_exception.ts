import { Exception } from '@adonisjs/core/exceptions'

/**
 * The ops API of a deployed application could not be reached or did not answer in time: 502, naming the application in the detail.
 */
export default class CoolifyOpsUnreachableException extends Exception {
  static status = 502
  static code = 'E_COOLIFY_OPS_UNREACHABLE'
  /** Added to the problem body: which application's ops API failed. */
  problemExtensions: Record<string, unknown> = { upstream: 'ops' }
}
