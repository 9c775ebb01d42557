import factory from '@adonisjs/lucid/factories'
import SleepwiseBedtime from '#models/sleepwise_bedtime'
import { fillUnset, localTime, nextFactoryDate, plusDays } from '#database/factories/sequence'

/** A SleepWise bedtime recommendation (22:30–06:30 local). Merge `userId` and usually `periodDate`. */
export const SleepwiseBedtimeFactory = factory
  .define(SleepwiseBedtime, () => ({
    quality: 'CIRCADIAN_BEDTIME_QUALITY_CLEARLY_RECOGNIZABLE',
    validity: 'VALIDITY_VALID',
    resultType: 'CIRCADIAN_BEDTIME_TYPE_PREDICTION',
    sleepTimezoneOffsetMinutes: 0,
  }))
  .before('create', (_, period) => {
    const date = period.periodDate ?? period.periodStartTime?.slice(0, 10) ?? nextFactoryDate()
    const next = plusDays(date, 1)
    fillUnset(period, {
      periodDate: date,
      periodStartTime: localTime(date, '22:30:00'),
      periodEndTime: localTime(next, '06:30:00'),
      preferredSleepStartTime: localTime(date, '22:30:00'),
      preferredSleepEndTime: localTime(next, '06:30:00'),
      sleepGateStartTime: localTime(date, '22:15:00'),
      sleepGateEndTime: localTime(date, '22:45:00'),
    })
  })
  .build()
