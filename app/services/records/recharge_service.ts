import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type NightlyRecharge from '#models/nightly_recharge'
import { RecordWindowService } from '#services/records/record_window'

/** The fields of a recharge night the list shows (a plain database row). */
export type RechargeListRecord = Pick<
  NightlyRecharge,
  'id' | 'date' | 'hrvAvg' | 'ansCharge' | 'ansChargeStatus' | 'breathingRateAvg' | 'heartRateAvg'
>

/** List columns, read as plain rows under their model names (no model hydration). */
const LIST_COLUMNS = [
  'id',
  'date',
  'hrv_avg as hrvAvg',
  'ans_charge as ansCharge',
  'ans_charge_status as ansChargeStatus',
  'breathing_rate_avg as breathingRateAvg',
  'heart_rate_avg as heartRateAvg',
]

@inject()
export class RechargeService {
  constructor(protected windows: RecordWindowService) {}

  /** Nightly Recharge of the last `days` calendar days, newest first (404 for an unknown user). */
  async listRecent(userId: string, days: number): Promise<RechargeListRecord[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return db
      .from('nightly_recharges')
      .select(LIST_COLUMNS)
      .where('user_id', user.id)
      .whereBetween('date', [from, to])
      .orderBy('date', 'desc')
  }
}
