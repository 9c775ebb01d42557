import { ActivitySampleSchema } from '#database/schema'

/** One day's activity samples: step runs, activity-zone changes and inactivity stamps (JSON). */
export default class ActivitySample extends ActivitySampleSchema {
  static table = 'activity_samples'
}
