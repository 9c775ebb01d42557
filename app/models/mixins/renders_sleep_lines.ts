import type { NormalizeConstructor } from '@adonisjs/core/types/helpers'
import { afterDelete, afterSave, beforeDelete, beforeSave, type BaseModel } from '@adonisjs/lucid/orm'
import type { LucidRow } from '@adonisjs/lucid/types/model'

/** A row a night's rendered sleep lines show: its user and its night. */
export type SleepLineRow = LucidRow & { userId: number; date: string }

/**
 * The hooks of the models whose rows the rendered sleep lines show (nights and their recharges,
 * `app/services/records/sleep_lines.ts`): inside a transaction the user's row is taken first, in
 * the order every writer takes it; after every save and delete the night's lines are rewritten and
 * the user's data version bumped. Imported lazily: the service imports these models.
 */
export function RendersSleepLines<Model extends NormalizeConstructor<typeof BaseModel>>(superclass: Model) {
  class SleepLineSource extends superclass {
    @beforeSave()
    @beforeDelete()
    static async lockUser(row: SleepLineRow) {
      const { SleepLines } = await import('#services/records/sleep_lines')
      await SleepLines.beforeModelWrite(row)
    }

    @afterSave()
    @afterDelete()
    static async refreshSleepLine(row: SleepLineRow) {
      const { SleepLines } = await import('#services/records/sleep_lines')
      await SleepLines.afterModelWrite(row)
    }
  }
  return SleepLineSource
}
