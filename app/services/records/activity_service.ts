import { inject } from '@adonisjs/core'
import DailyActivity from '#models/daily_activity'
import NotFoundException from '#exceptions/not_found_exception'
import { selectAttributes } from '#services/records/columns'
import { RecordWindowService, type WindowInput } from '#services/records/record_window'
import { listWindow, NEWEST_DATE_FIRST, type ListRequest, type RecordList } from '#services/records/record_list'
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

  /** Daily activity of the window, newest first (404 for an unknown user). */
  async list(userId: string, request: ListRequest): Promise<RecordList<ActivityListRecord>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    const query = DailyActivity.query()
      .pojo<ActivityListRecord>()
      .select(selectAttributes(DailyActivity, LIST_ATTRIBUTES))
      .where('userId', user.id)
    return listWindow(query, { model: DailyActivity, date: 'date', order: NEWEST_DATE_FIRST, range: { from, to }, page: request.page })
  }

  /** Daily activity of the last `days` calendar days (or a range), newest first: the whole window. */
  async listRecent(userId: string, window: WindowInput): Promise<ActivityListRecord[]> {
    return (await this.list(userId, { window, page: null })).rows
  }

  /** The activity day `date`; NotFoundException (404) when none is stored. */
  async findByDate(userId: string, date: string): Promise<DailyActivity> {
    const user = await this.users.refOrFail(userId)
    const day = await DailyActivity.query().where('userId', user.id).where('date', date).first()
    if (!day) throw new NotFoundException(`No activity record for ${date}.`)
    return day
  }
}
