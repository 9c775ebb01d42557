import { inject } from '@adonisjs/core'
import NightlyRecharge from '#models/nightly_recharge'
import { selectAttributes } from '#services/records/columns'
import { RecordWindowService, type WindowInput } from '#services/records/record_window'
import { listWindow, NEWEST_DATE_FIRST, type ListRequest, type RecordList } from '#services/records/record_list'

/** List attributes, read as plain rows under their model names (no model hydration). */
const LIST_ATTRIBUTES = [
  'id',
  'date',
  'hrvAvg',
  'ansCharge',
  'ansChargeStatus',
  'breathingRateAvg',
  'heartRateAvg',
] as const

/** The fields of a recharge night the list shows (a plain database row). */
export type RechargeListRecord = Pick<NightlyRecharge, (typeof LIST_ATTRIBUTES)[number]>

@inject()
export class RechargeService {
  constructor(protected windows: RecordWindowService) {}

  /** Nightly Recharge of the window, newest first (404 for an unknown user). */
  async list(userId: string, request: ListRequest): Promise<RecordList<RechargeListRecord>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    const query = NightlyRecharge.query()
      .pojo<RechargeListRecord>()
      .select(selectAttributes(NightlyRecharge, LIST_ATTRIBUTES))
      .where('userId', user.id)
    return listWindow(query, { model: NightlyRecharge, date: 'date', order: NEWEST_DATE_FIRST, range: { from, to }, page: request.page })
  }

  /** Nightly Recharge of the last `days` calendar days (or a range), newest first: the whole window. */
  async listRecent(userId: string, window: WindowInput): Promise<RechargeListRecord[]> {
    return (await this.list(userId, { window, page: null })).rows
  }
}
