import { Exception } from '@adonisjs/core/exceptions'

/**
 * A backup was requested for a database without a backup schedule and without a `frequency` to create one: 409.
 */
export default class CoolifyNoBackupScheduleException extends Exception {
  static status = 409
  static code = 'E_COOLIFY_NO_BACKUP_SCHEDULE'
}
