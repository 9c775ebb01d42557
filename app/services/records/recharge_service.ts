import { inject } from '@adonisjs/core'
import NightlyRecharge from '#models/nightly_recharge'
import { selectAttributes } from '#services/records/columns'
import { RecordWindowService } from '#services/records/record_window'

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

  /** Nightly Recharge of the last `days` calendar days, newest first (404 for an unknown user). */
  async listRecent(userId: string, days: number): Promise<RechargeListRecord[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return NightlyRecharge.query()
      .pojo<RechargeListRecord>()
      .select(selectAttributes(NightlyRecharge, LIST_ATTRIBUTES))
      .where('userId', user.id)
      .whereBetween('date', [from, to])
      .orderBy('date', 'desc')
  }
}
