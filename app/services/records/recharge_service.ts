import { inject } from '@adonisjs/core'
import NightlyRecharge from '#models/nightly_recharge'
import { RecordWindowService } from '#services/records/record_window'

@inject()
export class RechargeService {
  constructor(protected windows: RecordWindowService) {}

  /** Nightly Recharge of the last `days` calendar days, newest first (404 for an unknown user). */
  async listRecent(userId: string, days: number): Promise<NightlyRecharge[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return NightlyRecharge.query()
      .select('id', 'date', 'hrvAvg', 'ansCharge', 'ansChargeStatus', 'breathingRateAvg', 'heartRateAvg')
      .where('userId', user.id)
      .whereBetween('date', [from, to])
      .orderBy('date', 'desc')
  }
}
