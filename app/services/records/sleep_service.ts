import { inject } from '@adonisjs/core'
import SleepRecord from '#models/sleep_record'
import NightlyRecharge from '#models/nightly_recharge'
import NotFoundException from '#exceptions/not_found_exception'
import { selectAttributes } from '#services/records/columns'
import { RecordWindowService, type WindowInput } from '#services/records/record_window'
import { listWindow, type ListRequest, type RecordList } from '#services/records/record_list'
import { UserService } from '#services/user_service'

/**
 * Attributes of the list record, read as plain rows under their model names (no model hydration
 * for up to 366 nights): the night's JSON series stay in the database.
 */
const LIST_ATTRIBUTES = [
  'id',
  'date',
  'sleepScore',
  'lightSleepSeconds',
  'deepSleepSeconds',
  'remSleepSeconds',
  'heartRateAvg',
] as const

/** The same night's recharge attributes shown beside its sleep. */
const RECHARGE_ATTRIBUTES = ['hrvAvg', 'breathingRateAvg'] as const

/** The fields of a sleep record the list shows (a plain database row, or a SleepRecord). */
export type SleepListRecord = Pick<SleepRecord, (typeof LIST_ATTRIBUTES)[number]>

/** A night's recharge values shown beside its sleep. */
export type SleepNightRecharge = Pick<NightlyRecharge, (typeof RECHARGE_ATTRIBUTES)[number]>

/** A night of sleep with the same night's recharge values joined in. */
export interface SleepNight<Record extends SleepListRecord = SleepRecord> {
  record: Record
  recharge: SleepNightRecharge | null
}

@inject()
export class SleepService {
  constructor(
    protected windows: RecordWindowService,
    protected users: UserService
  ) {}

  /**
   * Nights of the window (`days` ending today or a `from`/`to` range, APP_TIMEZONE), newest first,
   * each with the same night's recharge (HRV, breathing): two queries in all (three when paged),
   * without the hypnogram and sample series.
   * Throws UnknownUserException (404) for a user we have never seen.
   */
  async list(userId: string, request: ListRequest): Promise<RecordList<SleepNight<SleepListRecord>>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    const query = SleepRecord.query().pojo<SleepListRecord>().select(selectAttributes(SleepRecord, LIST_ATTRIBUTES)).where('userId', user.id)
    const list = await listWindow(query, {
      model: SleepRecord,
      date: 'date',
      order: [{ attribute: 'date', direction: 'desc' }],
      range: { from, to },
      page: request.page,
    })
    // A page reads the recharge of its own nights only (newest first: the last row is the oldest).
    const dates: [string, string] =
      list.rows.length > 0 && request.page ? [list.rows[list.rows.length - 1].date, list.rows[0].date] : [from, to]
    const recharges = await NightlyRecharge.query()
      .pojo<SleepNightRecharge & { date: string }>()
      .select(selectAttributes(NightlyRecharge, ['date', ...RECHARGE_ATTRIBUTES]))
      .where('userId', user.id)
      .whereBetween('date', dates)
    const byDate = new Map(recharges.map(({ date, hrvAvg, breathingRateAvg }) => [date, { hrvAvg, breathingRateAvg }]))
    return { ...list, rows: list.rows.map((record) => ({ record, recharge: byDate.get(record.date) ?? null })) }
  }

  /** The nights of `days` calendar days ending today (or a range), newest first: the whole window. */
  async listRecent(userId: string, window: WindowInput): Promise<SleepNight<SleepListRecord>[]> {
    return (await this.list(userId, { window, page: null })).rows
  }

  /** The night dated `date` (the wake-up day) with its recharge; NotFoundException (404) when none. */
  async findByDate(userId: string, date: string): Promise<SleepNight> {
    const user = await this.users.findOrFail(userId)
    const record = await SleepRecord.query().where('userId', user.id).where('date', date).first()
    if (!record) throw new NotFoundException(`No sleep record for ${date}.`)
    const recharge = await NightlyRecharge.query()
      .select('date', ...RECHARGE_ATTRIBUTES)
      .where('userId', user.id)
      .where('date', date)
      .first()
    return { record, recharge }
  }
}
