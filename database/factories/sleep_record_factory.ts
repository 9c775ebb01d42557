import factory from '@adonisjs/lucid/factories'
import SleepRecord from '#models/sleep_record'
import { fillUnset, localTime, nextFactoryDate, plusDays } from '#database/factories/sequence'

/**
 * A plausible night (stage seconds, score, heart rate, JSON series). Merge
 * `userId` (required) and usually `date`; start, end and series follow the
 * date (the start is the evening before) unless merged too.
 */
export const SleepRecordFactory = factory
  .define(SleepRecord, ({ faker }) => ({
    date: nextFactoryDate(),
    sleepStartOffsetMinutes: 0,
    sleepEndOffsetMinutes: 0,
    deviceId: 'A1B2C3D4',
    continuity: faker.number.float({ min: 2, max: 4.5, fractionDigits: 1 }),
    continuityClass: faker.number.int({ min: 1, max: 5 }),
    lightSleepSeconds: faker.number.int({ min: 12000, max: 16000 }),
    deepSleepSeconds: faker.number.int({ min: 3600, max: 7200 }),
    remSleepSeconds: faker.number.int({ min: 4000, max: 7000 }),
    unrecognizedSleepSeconds: 0,
    sleepScore: faker.number.int({ min: 55, max: 95 }),
    totalInterruptionSeconds: faker.number.int({ min: 600, max: 3000 }),
    shortInterruptionSeconds: 600,
    longInterruptionSeconds: 300,
    sleepCharge: faker.number.int({ min: 1, max: 5 }),
    sleepGoalSeconds: 28800,
    sleepRating: faker.number.int({ min: 1, max: 5 }),
    sleepCycles: faker.number.int({ min: 3, max: 6 }),
    groupDurationScore: 80,
    groupSolidityScore: 70.5,
    groupRegenerationScore: 75.25,
    heartRateAvg: faker.number.int({ min: 48, max: 62 }),
    heartRateMin: 44,
    heartRateMax: 70,
  }))
  .before('create', (_, night) => {
    const eve = plusDays(night.date, -1)
    fillUnset(night, {
      sleepStartTime: localTime(eve, '23:00:00'),
      sleepEndTime: localTime(night.date, '07:00:00'),
      hypnogram: JSON.stringify([
        { time: localTime(eve, '23:00:00'), stage: 0 },
        { time: localTime(eve, '23:10:00'), stage: 3 },
        { time: localTime(night.date, '01:00:00'), stage: 4 },
        { time: localTime(night.date, '03:00:00'), stage: 1 },
        { time: localTime(night.date, '07:00:00'), stage: 0 },
      ]),
      heartRateSamples: JSON.stringify([
        { time: localTime(eve, '23:00:00'), heart_rate: 62 },
        { time: localTime(night.date, '02:00:00'), heart_rate: 48 },
        { time: localTime(night.date, '06:55:00'), heart_rate: 55 },
      ]),
    })
  })
  .build()
