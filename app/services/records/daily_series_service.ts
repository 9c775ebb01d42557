import { inject } from '@adonisjs/core'
import CardioLoad from '#models/cardio_load'
import HeartRateDay from '#models/heart_rate_day'
import { RecordWindowService } from '#services/records/record_window'

/** The one-row-per-day series without a detail route: cardio load and continuous heart rate. */
@inject()
export class DailySeriesService {
  constructor(protected windows: RecordWindowService) {}

  /** Cardio load of the last `days` calendar days, newest first (-1 sentinels are stored as null). */
  async cardioLoad(userId: string, days: number): Promise<CardioLoad[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return CardioLoad.query().where('userId', user.id).whereBetween('date', [from, to]).orderBy('date', 'desc')
  }

  /** Daily heart-rate summaries of the last `days` calendar days, newest first, without the samples. */
  async heartRate(userId: string, days: number): Promise<HeartRateDay[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return HeartRateDay.query()
      .select('id', 'date', 'hrMin', 'hrAvg', 'hrMax', 'sampleCount')
      .where('userId', user.id)
      .whereBetween('date', [from, to])
      .orderBy('date', 'desc')
  }
}
