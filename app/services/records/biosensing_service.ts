import { inject } from '@adonisjs/core'
import Spo2Test from '#models/spo2_test'
import EcgTest from '#models/ecg_test'
import BodyTemperature from '#models/body_temperature'
import SkinTemperature from '#models/skin_temperature'
import { RecordWindowService } from '#services/records/record_window'

/** Elixir biosensing records, windowed by their local date, newest first. */
@inject()
export class BiosensingService {
  constructor(protected windows: RecordWindowService) {}

  /** SpO2 tests taken in the last `days` calendar days. */
  async spo2(userId: string, days: number): Promise<Spo2Test[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return Spo2Test.query()
      .where('userId', user.id)
      .whereBetween('testDate', [from, to])
      .orderBy('testTimestamp', 'desc')
  }

  /** ECG tests taken in the last `days` calendar days, with their waveform and quality samples. */
  async ecg(userId: string, days: number): Promise<EcgTest[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return EcgTest.query()
      .where('userId', user.id)
      .whereBetween('testDate', [from, to])
      .orderBy('testTimestamp', 'desc')
  }

  /** Body-temperature periods starting in the last `days` calendar days. */
  async bodyTemperature(userId: string, days: number): Promise<BodyTemperature[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return BodyTemperature.query()
      .where('userId', user.id)
      .whereBetween('startDate', [from, to])
      .orderBy('startTime', 'desc')
      .orderBy('measurementType', 'asc')
  }

  /** Nightly skin temperatures of the last `days` calendar days. */
  async skinTemperature(userId: string, days: number): Promise<SkinTemperature[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return SkinTemperature.query()
      .where('userId', user.id)
      .whereBetween('sleepDate', [from, to])
      .orderBy('sleepDate', 'desc')
  }
}
