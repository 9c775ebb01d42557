import { SleepRecordSchema } from '#database/schema'

/** One night of sleep; stage durations in seconds, hypnogram and samples as JSON. */
export default class SleepRecord extends SleepRecordSchema {
  static table = 'sleep_records'
}
