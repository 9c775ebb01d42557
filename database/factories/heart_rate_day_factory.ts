import factory from '@adonisjs/lucid/factories'
import HeartRateDay from '#models/heart_rate_day'
import { fillUnset, localTime, nextFactoryDate } from '#database/factories/sequence'

/**
 * A continuous heart-rate day: the summary over samples > 0 (48/67/120)
 * plus four samples, one of them 0. Merge `userId` and usually `date`.
 */
export const HeartRateDayFactory = factory
  .define(HeartRateDay, () => ({ date: nextFactoryDate(), hrMin: 48, hrAvg: 67, hrMax: 120, sampleCount: 4 }))
  .before('create', (_, day) => {
    fillUnset(day, {
      samples: JSON.stringify([
        { time: localTime(day.date, '06:00:00'), heart_rate: 48 },
        { time: localTime(day.date, '09:00:00'), heart_rate: 0 },
        { time: localTime(day.date, '12:00:00'), heart_rate: 120 },
        { time: localTime(day.date, '18:00:00'), heart_rate: 33 },
      ]),
    })
  })
  .build()
