import { HeartRateDaySchema } from '#database/schema'

/** Continuous heart rate of one day: summary of samples > 0 plus the samples (JSON). */
export default class HeartRateDay extends HeartRateDaySchema {
  static table = 'heart_rate_days'
}
