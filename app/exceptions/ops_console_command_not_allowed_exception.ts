import { Exception } from '@adonisjs/core/exceptions'

/** A console command outside OPS_CONSOLE_COMMANDS: 403, the detail lists the allowed commands. */
export default class OpsConsoleCommandNotAllowedException extends Exception {
  static status = 403
  static code = 'E_OPS_CONSOLE_COMMAND_NOT_ALLOWED'
}
