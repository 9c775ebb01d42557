import { BaseTransformer } from '@adonisjs/core/transformers'
import type SkinTemperature from '#models/skin_temperature'

/** A night's skin temperature with every stored field (°C, and the deviation from the personal baseline). */
export default class SkinTemperatureTransformer extends BaseTransformer<SkinTemperature> {
  toObject() {
    const night = this.resource
    return {
      sleep_date: night.sleepDate,
      sleep_time_skin_temperature_celsius: night.sleepTimeSkinTemperatureCelsius,
      deviation_from_baseline_celsius: night.deviationFromBaselineCelsius,
    }
  }
}
