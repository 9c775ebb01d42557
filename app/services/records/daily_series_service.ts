import { inject } from '@adonisjs/core'
import CardioLoad from '#models/cardio_load'
import HeartRateDay from '#models/heart_rate_day'
import { RecordWindowService, type WindowInput } from '#services/records/record_window'
import { listWindow, NEWEST_DATE_FIRST, type ListRequest, type RecordList } from '#services/records/record_list'

/** The one-row-per-day series without a detail route: cardio load and continuous heart rate. */
@inject()
export class DailySeriesService {
  constructor(protected windows: RecordWindowService) {}

  /** Cardio load of the window, newest first (-1 sentinels are stored as null). */
  async listCardioLoad(userId: string, request: ListRequest): Promise<RecordList<CardioLoad>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    const query = CardioLoad.query().where('userId', user.id)
    return listWindow(query, { model: CardioLoad, date: 'date', order: NEWEST_DATE_FIRST, range: { from, to }, page: request.page })
  }

  /** Daily heart-rate summaries of the window, newest first, without the samples. */
  async listHeartRate(userId: string, request: ListRequest): Promise<RecordList<HeartRateDay>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    const query = HeartRateDay.query().select('id', 'date', 'hrMin', 'hrAvg', 'hrMax', 'sampleCount').where('userId', user.id)
    return listWindow(query, { model: HeartRateDay, date: 'date', order: NEWEST_DATE_FIRST, range: { from, to }, page: request.page })
  }

  /** Cardio load of the last `days` calendar days (or a range), newest first: the whole window. */
  async cardioLoad(userId: string, window: WindowInput): Promise<CardioLoad[]> {
    return (await this.listCardioLoad(userId, { window, page: null })).rows
  }

  /** Daily heart-rate summaries of the last `days` calendar days (or a range), newest first: the whole window. */
  async heartRate(userId: string, window: WindowInput): Promise<HeartRateDay[]> {
    return (await this.listHeartRate(userId, { window, page: null })).rows
  }
}
