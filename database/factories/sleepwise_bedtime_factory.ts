import factory from '@adonisjs/lucid/factories'
import SleepwiseBedtime from '#models/sleepwise_bedtime'
import { localTime, nextFactoryDate, plusDays } from '#database/factories/sequence'

/** A SleepWise bedtime recommendation (local times). Merge `userId`; move it with `periodDate` + times. */
export const SleepwiseBedtimeFactory = factory
  .define(SleepwiseBedtime, () => {
    const date = nextFactoryDate()
    const next = plusDays(date, 1)
    return {
      periodStartTime: localTime(date, '22:30:00'),
      periodEndTime: localTime(next, '06:30:00'),
      periodDate: date,
      preferredSleepStartTime: localTime(date, '22:30:00'),
      preferredSleepEndTime: localTime(next, '06:30:00'),
      sleepGateStartTime: localTime(date, '22:15:00'),
      sleepGateEndTime: localTime(date, '22:45:00'),
      quality: 'CIRCADIAN_BEDTIME_QUALITY_CLEARLY_RECOGNIZABLE',
      validity: 'VALIDITY_VALID',
      resultType: 'CIRCADIAN_BEDTIME_TYPE_PREDICTION',
      sleepTimezoneOffsetMinutes: 0,
    }
  })
  .build()
