import factory from '@adonisjs/lucid/factories'
import HeartRateDay from '#models/heart_rate_day'
import { localTime, nextFactoryDate } from '#database/factories/sequence'

/** A continuous heart-rate day: summary over samples > 0 plus the samples. Merge `userId`, `date`. */
export const HeartRateDayFactory = factory
  .define(HeartRateDay, () => {
    const date = nextFactoryDate()
    return {
      date,
      hrMin: 48,
      hrAvg: 67,
      hrMax: 120,
      sampleCount: 4,
      samples: JSON.stringify([
        { time: localTime(date, '06:00:00'), heart_rate: 48 },
        { time: localTime(date, '09:00:00'), heart_rate: 0 },
        { time: localTime(date, '12:00:00'), heart_rate: 120 },
        { time: localTime(date, '18:00:00'), heart_rate: 33 },
      ]),
    }
  })
  .build()
