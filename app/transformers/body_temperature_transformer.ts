import { BaseTransformer } from '@adonisjs/core/transformers'
import type BodyTemperature from '#models/body_temperature'
import { parseJson } from '#services/records/units'

/**
 * A body-temperature measurement period with every stored field (the spec
 * leaves them open): local times, type and sensor location, °C min/avg/max
 * over the samples, and the samples (time, ms from the start, °C).
 */
export default class BodyTemperatureTransformer extends BaseTransformer<BodyTemperature> {
  toObject() {
    const period = this.resource
    const samples = parseJson<Array<Record<string, unknown>>>(period.samples)
    return {
      start_time: period.startTime,
      end_time: period.endTime,
      modified_time: period.modifiedTime,
      measurement_type: period.measurementType,
      sensor_location: period.sensorLocation,
      device_id: period.sourceDeviceId,
      temperature_min_celsius: period.temperatureMinCelsius,
      temperature_avg_celsius: period.temperatureAvgCelsius,
      temperature_max_celsius: period.temperatureMaxCelsius,
      sample_count: period.sampleCount,
      samples: Array.isArray(samples)
        ? samples.map((sample) => ({
            time: sample.time ?? null,
            offset_ms: sample.offset_ms ?? null,
            temperature_celsius: sample.temperature_celsius ?? null,
          }))
        : null,
    }
  }
}
