import { inject } from '@adonisjs/core'
import SleepwiseAlertness from '#models/sleepwise_alertness'
import SleepwiseBedtime from '#models/sleepwise_bedtime'
import { RecordWindowService, type WindowInput } from '#services/records/record_window'
import { listWindow, type ListRequest, type ListOrder, type RecordList } from '#services/records/record_list'

const NEWEST_PERIOD_FIRST: ListOrder[] = [{ attribute: 'periodStartTime', direction: 'desc' }]

/** SleepWise periods, windowed by the local date of the period start. */
@inject()
export class SleepwiseService {
  constructor(protected windows: RecordWindowService) {}

  /** Alertness periods starting in the window, newest first. */
  async listAlertness(userId: string, request: ListRequest): Promise<RecordList<SleepwiseAlertness>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    return listWindow(SleepwiseAlertness.query().where('userId', user.id), {
      model: SleepwiseAlertness,
      date: 'periodDate',
      order: NEWEST_PERIOD_FIRST,
      range: { from, to },
      page: request.page,
    })
  }

  /** Bedtime recommendations starting in the window, newest first. */
  async listBedtime(userId: string, request: ListRequest): Promise<RecordList<SleepwiseBedtime>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    return listWindow(SleepwiseBedtime.query().where('userId', user.id), {
      model: SleepwiseBedtime,
      date: 'periodDate',
      order: NEWEST_PERIOD_FIRST,
      range: { from, to },
      page: request.page,
    })
  }

  /** Alertness periods starting in the last `days` calendar days (or a range), newest first. */
  async alertness(userId: string, window: WindowInput): Promise<SleepwiseAlertness[]> {
    return (await this.listAlertness(userId, { window, page: null })).rows
  }

  /** Bedtime recommendations starting in the last `days` calendar days (or a range), newest first. */
  async bedtime(userId: string, window: WindowInput): Promise<SleepwiseBedtime[]> {
    return (await this.listBedtime(userId, { window, page: null })).rows
  }
}
