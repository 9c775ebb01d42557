import { inject } from '@adonisjs/core'
import SleepRecord from '#models/sleep_record'
import NightlyRecharge from '#models/nightly_recharge'
import NotFoundException from '#exceptions/not_found_exception'
import { columnOf, selectAttributes } from '#services/records/columns'
import { HotQueries } from '#services/hot_queries'
import { RecordWindowService, type WindowInput } from '#services/records/record_window'
import { listWindow, type ListRequest, type RecordList } from '#services/records/record_list'
import { UserService } from '#services/user_service'
import { SleepLines } from '#services/records/sleep_lines'

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

/** Whole-window list rows: the night's attributes and its recharge's, joined (null `rechargeId`: no recharge). */
type JoinedNight = SleepListRecord & SleepNightRecharge & { rechargeId: number | null }

let joinedSql: string | undefined
/**
 * The whole window's nights, newest first, each joined with the same night's recharge (one row
 * per user and date in both tables): one prepared statement, columns under the attribute names.
 */
function joinedWindowSql(): string {
  const night = LIST_ATTRIBUTES.map((a) => `s.${columnOf(SleepRecord, a)} as "${a}"`)
  const recharge = RECHARGE_ATTRIBUTES.map((a) => `r.${columnOf(NightlyRecharge, a)} as "${a}"`)
  const userId = columnOf(SleepRecord, 'userId')
  const date = columnOf(SleepRecord, 'date')
  return (joinedSql ??=
    `select ${[...night, ...recharge, 'r.id as "rechargeId"'].join(', ')} from ${SleepRecord.table} s ` +
    `left join ${NightlyRecharge.table} r on r.${columnOf(NightlyRecharge, 'userId')} = s.${userId} and r.${columnOf(NightlyRecharge, 'date')} = s.${date} ` +
    `where s.${userId} = ? and s.${date} between ? and ? order by s.${date} desc, s.id desc`)
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
    if (!request.page) {
      // The whole window (up to a year and more of nights): one joined query, rows as read.
      const rows = await HotQueries.scan<JoinedNight>(joinedWindowSql(), [user.id, from, to])
      // Each row serves as both records (it carries both attribute sets): no copies per night.
      return {
        rows: rows.map((row) => ({ record: row, recharge: row.rechargeId === null ? null : row })),
        next: null,
        total: null,
      }
    }
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

  /**
   * The whole window's list as its JSON text, newest first: the nights' rendered lines
   * (SleepLines), the same items `list` gives through SleepRecordTransformer.
   */
  async listText(userId: string, window: WindowInput): Promise<string> {
    const { user, from, to } = await this.windows.open(userId, window)
    return SleepLines.json(user.id, from, to)
  }

  /** The nights of `days` calendar days ending today (or a range), newest first: the whole window. */
  async listRecent(userId: string, window: WindowInput): Promise<SleepNight<SleepListRecord>[]> {
    return (await this.list(userId, { window, page: null })).rows
  }

  /** The night dated `date` (the wake-up day) with its recharge; NotFoundException (404) when none. */
  async findByDate(userId: string, date: string): Promise<SleepNight> {
    const user = await this.users.refOrFail(userId)
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
