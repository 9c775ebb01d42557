import { Exception } from '@adonisjs/core/exceptions'

/**
 * A console command outside OPS_CONSOLE_COMMANDS: 403. The problem body carries the allowlist
 * as `allowed_commands`.
 */
export default class OpsConsoleCommandNotAllowedException extends Exception {
  static status = 403
  static code = 'E_OPS_CONSOLE_COMMAND_NOT_ALLOWED'

  problemExtensions: { allowed_commands: string[] }

  constructor(message: string, allowedCommands: string[]) {
    super(message)
    this.problemExtensions = { allowed_commands: allowedCommands }
  }
}
