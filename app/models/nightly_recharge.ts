import { afterDelete, afterSave, beforeDelete, beforeSave } from '@adonisjs/lucid/orm'
import { NightlyRechargeSchema } from '#database/schema'

/** Nightly Recharge of one night; `hrvAvg` is the RMSSD in ms. */
export default class NightlyRecharge extends NightlyRechargeSchema {
  static table = 'nightly_recharges'

  /** Inside a transaction the user's row is taken first, in the order every writer takes it. */
  @beforeSave()
  @beforeDelete()
  static async lockUser(recharge: NightlyRecharge) {
    const { SleepLines } = await import('#services/records/sleep_lines')
    await SleepLines.beforeModelWrite(recharge)
  }

  /** The same night's rendered sleep lines show its values: they follow every save and delete. */
  @afterSave()
  @afterDelete()
  static async refreshSleepLine(recharge: NightlyRecharge) {
    const { SleepLines } = await import('#services/records/sleep_lines')
    await SleepLines.afterModelWrite(recharge)
  }
}
