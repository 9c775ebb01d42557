import factory from '@adonisjs/lucid/factories'
import CardioLoad from '#models/cardio_load'
import { nextFactoryDate } from '#database/factories/sequence'

/** A daily cardio load. Merge `userId` and usually `date`. */
export const CardioLoadFactory = factory
  .define(CardioLoad, ({ faker }) => ({
    date: nextFactoryDate(),
    cardioLoad: faker.number.float({ min: 0, max: 200, fractionDigits: 1 }),
    strain: faker.number.float({ min: 20, max: 120, fractionDigits: 1 }),
    tolerance: faker.number.float({ min: 40, max: 100, fractionDigits: 1 }),
    cardioLoadRatio: faker.number.float({ min: 0.5, max: 1.6, fractionDigits: 2 }),
    cardioLoadStatus: 'LOAD_STATUS_MAINTAINING',
    levelVeryLow: 10,
    levelLow: 30,
    levelMedium: 60,
    levelHigh: 90,
    levelVeryHigh: 120,
  }))
  .build()
