import { inject } from '@adonisjs/core'
import DailyActivity from '#models/daily_activity'
import NotFoundException from '#exceptions/not_found_exception'
import { selectAttributes } from '#services/records/columns'
import { RecordWindowService } from '#services/records/record_window'
import { UserService } from '#services/user_service'

/**
 * Attributes of the list record, read as plain rows under their model names (no model
 * hydration): step samples and zones stay in the database.
 */
const LIST_ATTRIBUTES = [
  'id',
  'date',
  'steps',
  'caloriesActive',
  'caloriesTotal',
  'distanceMeters',
  'activeDurationSeconds',
  'dailyActivity',
] as const

/** The fields of an activity day the list shows (a plain database row, or a DailyActivity). */
export type ActivityListRecord = Pick<DailyActivity, (typeof LIST_ATTRIBUTES)[number]>

@inject()
export class ActivityService {
  constructor(
    protected windows: RecordWindowService,
    protected users: UserService
  ) {}

  /** Daily activity of the last `days` calendar days, newest first (404 for an unknown user). */
  async listRecent(userId: string, days: number): Promise<ActivityListRecord[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return DailyActivity.query()
      .pojo<ActivityListRecord>()
      .select(selectAttributes(DailyActivity, LIST_ATTRIBUTES))
      .where('userId', user.id)
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
