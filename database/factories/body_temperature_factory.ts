import factory from '@adonisjs/lucid/factories'
import BodyTemperature from '#models/body_temperature'
import { fillUnset, localTime, nextFactoryDate } from '#database/factories/sequence'

/** A one-hour skin-temperature period (02:00–03:00) with samples. Merge `userId` and usually `startDate`. */
export const BodyTemperatureFactory = factory
  .define(BodyTemperature, () => ({
    measurementType: 'TM_SKIN_TEMPERATURE',
    sensorLocation: 'SL_DISTAL',
    sourceDeviceId: 'A1B2C3D4',
    temperatureMinCelsius: 33.9,
    temperatureAvgCelsius: 34.25,
    temperatureMaxCelsius: 34.6,
    sampleCount: 2,
  }))
  .before('create', (_, period) => {
    const date = period.startDate ?? period.startTime?.slice(0, 10) ?? nextFactoryDate()
    fillUnset(period, {
      startDate: date,
      startTime: localTime(date, '02:00:00'),
      endTime: localTime(date, '03:00:00'),
      modifiedTime: localTime(date, '03:00:00'),
      samples: JSON.stringify([
        { time: localTime(date, '02:00:00'), offset_ms: 0, temperature_celsius: 33.9 },
        { time: localTime(date, '02:01:00'), offset_ms: 60000, temperature_celsius: 34.6 },
      ]),
    })
  })
  .build()
