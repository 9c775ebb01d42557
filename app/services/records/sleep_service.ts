import { inject } from '@adonisjs/core'
import SleepRecord from '#models/sleep_record'
import NightlyRecharge from '#models/nightly_recharge'
import NotFoundException from '#exceptions/not_found_exception'
import { RecordWindowService } from '#services/records/record_window'
import { UserService } from '#services/user_service'

/** A night of sleep with the same night's recharge values joined in. */
export interface SleepNight {
  record: SleepRecord
  recharge: Pick<NightlyRecharge, 'hrvAvg' | 'breathingRateAvg'> | null
}

/** Columns of the list record: the night's JSON series stay in the database. */
const LIST_COLUMNS = ['id', 'date', 'sleepScore', 'lightSleepSeconds', 'deepSleepSeconds', 'remSleepSeconds', 'heartRateAvg']

@inject()
export class SleepService {
  constructor(
    protected windows: RecordWindowService,
    protected users: UserService
  ) {}

  /**
   * Nights dated today-(days-1) … today in APP_TIMEZONE, newest first, each
   * with the same night's recharge (HRV, breathing): two queries in all,
   * without the hypnogram and sample series.
   * Throws UnknownUserException (404) for a user we have never seen.
   */
  async listRecent(userId: string, days: number): Promise<SleepNight[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    const records = await SleepRecord.query()
      .select(LIST_COLUMNS)
      .where('userId', user.id)
      .whereBetween('date', [from, to])
      .orderBy('date', 'desc')
    const recharges = await NightlyRecharge.query()
      .select('date', 'hrvAvg', 'breathingRateAvg')
      .where('userId', user.id)
      .whereBetween('date', [from, to])
    const byDate = new Map(recharges.map((recharge) => [recharge.date, recharge]))
    return records.map((record) => ({ record, recharge: byDate.get(record.date) ?? null }))
  }

  /** The night dated `date` (the wake-up day) with its recharge; NotFoundException (404) when none. */
  async findByDate(userId: string, date: string): Promise<SleepNight> {
    const user = await this.users.findOrFail(userId)
    const record = await SleepRecord.query().where('userId', user.id).where('date', date).first()
    if (!record) throw new NotFoundException(`No sleep record for ${date}.`)
    const recharge = await NightlyRecharge.query()
      .select('date', 'hrvAvg', 'breathingRateAvg')
      .where('userId', user.id)
      .where('date', date)
      .first()
    return { record, recharge }
  }
}
