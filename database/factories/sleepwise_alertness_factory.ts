import factory from '@adonisjs/lucid/factories'
import SleepwiseAlertness from '#models/sleepwise_alertness'
import { localTime, nextFactoryDate } from '#database/factories/sequence'

/** A SleepWise alertness period (local times). Merge `userId`; move it with `periodDate` + times. */
export const SleepwiseAlertnessFactory = factory
  .define(SleepwiseAlertness, ({ faker }) => {
    const date = nextFactoryDate()
    return {
      periodStartTime: localTime(date, '07:00:00'),
      periodEndTime: localTime(date, '23:00:00'),
      periodDate: date,
      grade: faker.number.float({ min: 0, max: 10, fractionDigits: 1 }),
      gradeValiditySeconds: 57600,
      gradeType: 'GRADE_TYPE_PRIMARY',
      gradeClassification: 'GRADE_CLASSIFICATION_STRONG',
      validity: 'VALIDITY_VALID',
      sleepInertia: 'SLEEP_INERTIA_MILD',
      sleepType: 'SLEEP_TYPE_PRIMARY',
      resultType: 'ALERTNESS_TYPE_HISTORY',
      sleepPeriodStartTime: localTime(date, '00:00:00'),
      sleepPeriodEndTime: localTime(date, '07:00:00'),
      sleepTimezoneOffsetMinutes: 0,
      hourlyData: JSON.stringify([
        {
          validity: 'VALIDITY_VALID',
          alertness_level: 'ALERTNESS_LEVEL_HIGH',
          start_time: localTime(date, '07:00:00'),
          end_time: localTime(date, '08:00:00'),
        },
      ]),
    }
  })
  .build()
