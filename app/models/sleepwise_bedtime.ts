import { SleepwiseBedtimeSchema } from '#database/schema'

/** A SleepWise circadian bedtime recommendation (local times). */
export default class SleepwiseBedtime extends SleepwiseBedtimeSchema {
  static table = 'sleepwise_bedtimes'
}
