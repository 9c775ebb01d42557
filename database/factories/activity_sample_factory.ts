import factory from '@adonisjs/lucid/factories'
import ActivitySample from '#models/activity_sample'
import { fillUnset, localTime, nextFactoryDate } from '#database/factories/sequence'

/**
 * A day of activity samples as the mapper stores them: asleep (0 steps) until 07:00, 42 steps a
 * minute for 30 minutes, then still (1 260 steps); sleep, light and sedentary zones; one inactivity
 * stamp. Merge `userId` and usually `date`.
 */
export const ActivitySampleFactory = factory
  .define(ActivitySample, () => ({ date: nextFactoryDate(), intervalMs: 60000, totalSteps: 1260, stepRunCount: 3 }))
  .before('create', (_, day) => {
    fillUnset(day, {
      stepSamples: JSON.stringify([
        { time: localTime(day.date, '00:00:00'), steps: 0 },
        { time: localTime(day.date, '07:00:00'), steps: 42 },
        { time: localTime(day.date, '07:30:00'), steps: 0 },
      ]),
      zoneSamples: JSON.stringify([
        { time: localTime(day.date, '00:00:00'), zone: 'SLEEP' },
        { time: localTime(day.date, '06:58:30'), zone: 'LIGHT' },
        { time: localTime(day.date, '07:30:00'), zone: 'SEDENTARY' },
      ]),
      inactivityStamps: JSON.stringify([localTime(day.date, '16:04:00')]),
    })
  })
  .build()
