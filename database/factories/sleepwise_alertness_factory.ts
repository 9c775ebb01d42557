import factory from '@adonisjs/lucid/factories'
import SleepwiseAlertness from '#models/sleepwise_alertness'
import { fillUnset, localTime, nextFactoryDate } from '#database/factories/sequence'

/** A SleepWise alertness period (local times, 07:00–23:00). Merge `userId` and usually `periodDate`. */
export const SleepwiseAlertnessFactory = factory
  .define(SleepwiseAlertness, ({ faker }) => ({
    grade: faker.number.float({ min: 0, max: 10, fractionDigits: 1 }),
    gradeValiditySeconds: 57600,
    gradeType: 'GRADE_TYPE_PRIMARY',
    gradeClassification: 'GRADE_CLASSIFICATION_STRONG',
    validity: 'VALIDITY_VALID',
    sleepInertia: 'SLEEP_INERTIA_MILD',
    sleepType: 'SLEEP_TYPE_PRIMARY',
    resultType: 'ALERTNESS_TYPE_HISTORY',
    sleepTimezoneOffsetMinutes: 0,
  }))
  .before('create', (_, period) => {
    const date = period.periodDate ?? period.periodStartTime?.slice(0, 10) ?? nextFactoryDate()
    fillUnset(period, {
      periodDate: date,
      periodStartTime: localTime(date, '07:00:00'),
      periodEndTime: localTime(date, '23:00:00'),
      sleepPeriodStartTime: localTime(date, '00:00:00'),
      sleepPeriodEndTime: localTime(date, '07:00:00'),
      hourlyData: JSON.stringify([
        {
          validity: 'VALIDITY_VALID',
          alertness_level: 'ALERTNESS_LEVEL_HIGH',
          start_time: localTime(date, '07:00:00'),
          end_time: localTime(date, '08:00:00'),
        },
      ]),
    })
  })
  .build()
