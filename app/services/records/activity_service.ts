import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import DailyActivity from '#models/daily_activity'
import NotFoundException from '#exceptions/not_found_exception'
import { RecordWindowService } from '#services/records/record_window'
import { UserService } from '#services/user_service'

/** The fields of an activity day the list shows (a plain database row, or a DailyActivity). */
export type ActivityListRecord = Pick<
  DailyActivity,
  'id' | 'date' | 'steps' | 'caloriesActive' | 'caloriesTotal' | 'distanceMeters' | 'activeDurationSeconds' | 'dailyActivity'
>

/**
 * Columns of the list record, read as plain rows under their model names (no
 * model hydration): step samples and zones stay in the database.
 */
const LIST_COLUMNS = [
  'id',
  'date',
  'steps',
  'calories_active as caloriesActive',
  'calories_total as caloriesTotal',
  'distance_meters as distanceMeters',
  'active_duration_seconds as activeDurationSeconds',
  'daily_activity as dailyActivity',
]

@inject()
export class ActivityService {
  constructor(
    protected windows: RecordWindowService,
    protected users: UserService
  ) {}

  /** Daily activity of the last `days` calendar days, newest first (404 for an unknown user). */
  async listRecent(userId: string, days: number): Promise<ActivityListRecord[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return db
      .from('daily_activities')
      .select(LIST_COLUMNS)
      .where('user_id', user.id)
      .whereBetween('date', [from, to])
      .orderBy('date', 'desc')
  }

  /** The activity day `date`; NotFoundException (404) when none is stored. */
  async findByDate(userId: string, date: string): Promise<DailyActivity> {
    const user = await this.users.findOrFail(userId)
    const day = await DailyActivity.query().where('userId', user.id).where('date', date).first()
    if (!day) throw new NotFoundException(`No activity record for ${date}.`)
    return day
  }
}
