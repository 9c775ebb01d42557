import { afterDelete, afterSave, beforeDelete, beforeSave } from '@adonisjs/lucid/orm'
import { SleepRecordSchema } from '#database/schema'

/** One night of sleep; stage durations in seconds, hypnogram and samples as JSON. */
export default class SleepRecord extends SleepRecordSchema {
  static table = 'sleep_records'

  /** Inside a transaction the user's row is taken first, in the order every writer takes it. */
  @beforeSave()
  @beforeDelete()
  static async lockUser(night: SleepRecord) {
    const { SleepLines } = await import('#services/records/sleep_lines')
    await SleepLines.beforeModelWrite(night)
  }

  /** The night's rendered lines (and the user's data version) follow every save and delete. */
  @afterSave()
  @afterDelete()
  static async refreshSleepLine(night: SleepRecord) {
    const { SleepLines } = await import('#services/records/sleep_lines')
    await SleepLines.afterModelWrite(night)
  }
}
