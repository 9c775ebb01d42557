import { inject } from '@adonisjs/core'
import Spo2Test from '#models/spo2_test'
import EcgTest from '#models/ecg_test'
import BodyTemperature from '#models/body_temperature'
import SkinTemperature from '#models/skin_temperature'
import { RecordWindowService, type WindowInput } from '#services/records/record_window'
import { listWindow, type ListRequest, type RecordList } from '#services/records/record_list'

/** Elixir biosensing records, windowed by their local date, newest first. */
@inject()
export class BiosensingService {
  constructor(protected windows: RecordWindowService) {}

  /** SpO2 tests taken in the window. */
  async listSpo2(userId: string, request: ListRequest): Promise<RecordList<Spo2Test>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    return listWindow(Spo2Test.query().where('userId', user.id), {
      model: Spo2Test,
      date: 'testDate',
      order: [{ attribute: 'testTimestamp', direction: 'desc' }],
      range: { from, to },
      page: request.page,
    })
  }

  /** ECG tests taken in the window, with their waveform and quality samples. */
  async listEcg(userId: string, request: ListRequest): Promise<RecordList<EcgTest>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    return listWindow(EcgTest.query().where('userId', user.id), {
      model: EcgTest,
      date: 'testDate',
      order: [{ attribute: 'testTimestamp', direction: 'desc' }],
      range: { from, to },
      page: request.page,
    })
  }

  /** Body-temperature periods starting in the window (newest first, then by measurement type). */
  async listBodyTemperature(userId: string, request: ListRequest): Promise<RecordList<BodyTemperature>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    return listWindow(BodyTemperature.query().where('userId', user.id), {
      model: BodyTemperature,
      date: 'startDate',
      order: [
        { attribute: 'startTime', direction: 'desc' },
        { attribute: 'measurementType', direction: 'asc' },
      ],
      range: { from, to },
      page: request.page,
    })
  }

  /** Nightly skin temperatures of the window. */
  async listSkinTemperature(userId: string, request: ListRequest): Promise<RecordList<SkinTemperature>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    return listWindow(SkinTemperature.query().where('userId', user.id), {
      model: SkinTemperature,
      date: 'sleepDate',
      order: [{ attribute: 'sleepDate', direction: 'desc' }],
      range: { from, to },
      page: request.page,
    })
  }

  /** SpO2 tests taken in the last `days` calendar days (or a range): the whole window. */
  async spo2(userId: string, window: WindowInput): Promise<Spo2Test[]> {
    return (await this.listSpo2(userId, { window, page: null })).rows
  }

  /** ECG tests taken in the last `days` calendar days (or a range): the whole window. */
  async ecg(userId: string, window: WindowInput): Promise<EcgTest[]> {
    return (await this.listEcg(userId, { window, page: null })).rows
  }

  /** Body-temperature periods starting in the last `days` calendar days (or a range): the whole window. */
  async bodyTemperature(userId: string, window: WindowInput): Promise<BodyTemperature[]> {
    return (await this.listBodyTemperature(userId, { window, page: null })).rows
  }

  /** Nightly skin temperatures of the last `days` calendar days (or a range): the whole window. */
  async skinTemperature(userId: string, window: WindowInput): Promise<SkinTemperature[]> {
    return (await this.listSkinTemperature(userId, { window, page: null })).rows
  }
}
