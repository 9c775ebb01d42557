import factory from '@adonisjs/lucid/factories'
import BodyTemperature from '#models/body_temperature'
import { localTime, nextFactoryDate } from '#database/factories/sequence'

/** A one-hour skin-temperature period with samples. Merge `userId`; move it with `startTime`, `endTime`, `startDate`. */
export const BodyTemperatureFactory = factory
  .define(BodyTemperature, () => {
    const date = nextFactoryDate()
    return {
      startTime: localTime(date, '02:00:00'),
      endTime: localTime(date, '03:00:00'),
      startDate: date,
      modifiedTime: localTime(date, '03:00:00'),
      measurementType: 'TM_SKIN_TEMPERATURE',
      sensorLocation: 'SL_DISTAL',
      sourceDeviceId: 'A1B2C3D4',
      temperatureMinCelsius: 33.9,
      temperatureAvgCelsius: 34.2,
      temperatureMaxCelsius: 34.6,
      sampleCount: 2,
      samples: JSON.stringify([
        { recording_time_delta_ms: 0, temperature_celsius: 33.9 },
        { recording_time_delta_ms: 60000, temperature_celsius: 34.6 },
      ]),
    }
  })
  .build()
