import factory from '@adonisjs/lucid/factories'
import DailyActivity from '#models/daily_activity'
import { fillUnset, localTime, nextFactoryDate } from '#database/factories/sequence'

/** A daily activity summary in raw units (m, s, kcal). Merge `userId` and usually `date`. */
export const DailyActivityFactory = factory
  .define(DailyActivity, ({ faker }) => ({
    date: nextFactoryDate(),
    steps: faker.number.int({ min: 2000, max: 20000 }),
    caloriesTotal: faker.number.int({ min: 1800, max: 3500 }),
    caloriesActive: faker.number.int({ min: 200, max: 1200 }),
    distanceMeters: faker.number.float({ min: 1000, max: 15000, fractionDigits: 1 }),
    activeDurationSeconds: faker.number.int({ min: 1800, max: 14400 }),
    inactiveDurationSeconds: faker.number.int({ min: 20000, max: 40000 }),
    dailyActivity: faker.number.float({ min: 40, max: 160, fractionDigits: 1 }),
    inactivityAlertCount: faker.number.int({ min: 0, max: 3 }),
  }))
  .before('create', (_, day) => {
    fillUnset(day, {
      startTime: localTime(day.date, '00:00:00'),
      endTime: localTime(day.date, '23:59:59'),
      stepSamples: JSON.stringify({
        interval_ms: 3600000,
        total_steps: 1200,
        samples: [{ time: localTime(day.date, '08:00:00'), steps: 1200 }],
      }),
      activityZones: JSON.stringify([
        { time: localTime(day.date, '00:00:00'), zone: 'SLEEP' },
        { time: localTime(day.date, '08:00:00'), zone: 'LIGHT' },
      ]),
    })
  })
  .build()
