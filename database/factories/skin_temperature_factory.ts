import factory from '@adonisjs/lucid/factories'
import SkinTemperature from '#models/skin_temperature'
import { nextFactoryDate } from '#database/factories/sequence'

/** A night's skin temperature and deviation (°C). Merge `userId` and usually `sleepDate`. */
export const SkinTemperatureFactory = factory
  .define(SkinTemperature, ({ faker }) => ({
    sleepDate: nextFactoryDate(),
    sleepTimeSkinTemperatureCelsius: faker.number.float({ min: 33, max: 35.5, fractionDigits: 2 }),
    deviationFromBaselineCelsius: faker.number.float({ min: -1, max: 1, fractionDigits: 2 }),
  }))
  .build()
