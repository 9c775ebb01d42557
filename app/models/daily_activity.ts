import { DailyActivitySchema } from '#database/schema'

/** Daily activity summary in raw units (meters, seconds, kcal). */
export default class DailyActivity extends DailyActivitySchema {
  static table = 'daily_activities'
}
