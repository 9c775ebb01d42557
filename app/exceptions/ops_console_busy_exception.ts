import { Exception } from '@adonisjs/core/exceptions'

/** Every console slot of this process is running a command: 429, try again shortly. */
export default class OpsConsoleBusyException extends Exception {
  static status = 429
  static code = 'E_OPS_CONSOLE_BUSY'
  headers = { 'Retry-After': '5' }
}
