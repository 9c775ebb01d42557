import { compose } from '@adonisjs/core/helpers'
import { SleepRecordSchema } from '#database/schema'
import { RendersSleepLines } from '#models/mixins/renders_sleep_lines'

/** One night of sleep; stage durations in seconds, hypnogram and samples as JSON. Its rendered sleep lines follow every save and delete. */
export default class SleepRecord extends compose(SleepRecordSchema, RendersSleepLines) {
  static table = 'sleep_records'
}
