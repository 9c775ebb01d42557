import { inject } from '@adonisjs/core'
import SleepwiseAlertness from '#models/sleepwise_alertness'
import SleepwiseBedtime from '#models/sleepwise_bedtime'
import { RecordWindowService } from '#services/records/record_window'

/** SleepWise periods, windowed by the local date of the period start. */
@inject()
export class SleepwiseService {
  constructor(protected windows: RecordWindowService) {}

  /** Alertness periods starting in the last `days` calendar days, newest first. */
  async alertness(userId: string, days: number): Promise<SleepwiseAlertness[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return SleepwiseAlertness.query()
      .where('userId', user.id)
      .whereBetween('periodDate', [from, to])
      .orderBy('periodStartTime', 'desc')
  }

  /** Bedtime recommendations starting in the last `days` calendar days, newest first. */
  async bedtime(userId: string, days: number): Promise<SleepwiseBedtime[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return SleepwiseBedtime.query()
      .where('userId', user.id)
      .whereBetween('periodDate', [from, to])
      .orderBy('periodStartTime', 'desc')
  }
}
