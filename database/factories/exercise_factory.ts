import factory from '@adonisjs/lucid/factories'
import Exercise from '#models/exercise'
import { fillUnset, localTime, nextFactoryDate } from '#database/factories/sequence'

/**
 * A running session with zones and Training Load Pro. Merge `userId`; to
 * move it, merge `startDate` (the start is 18:30 that day) or `startTime`.
 */
export const ExerciseFactory = factory
  .define(Exercise, ({ faker }) => {
    return {
      polarExerciseId: faker.string.alphanumeric(12),
      startTimeUtcOffset: 0,
      device: 'Polar Vantage V3',
      deviceId: 'A1B2C3D4',
      durationSeconds: faker.number.int({ min: 1200, max: 5400 }),
      sport: 'RUNNING',
      detailedSportInfo: 'RUNNING_ROAD',
      distanceMeters: faker.number.float({ min: 3000, max: 15000, fractionDigits: 1 }),
      calories: faker.number.int({ min: 200, max: 900 }),
      averageHeartRate: faker.number.int({ min: 120, max: 160 }),
      maxHeartRate: faker.number.int({ min: 165, max: 190 }),
      trainingLoad: faker.number.float({ min: 20, max: 200, fractionDigits: 1 }),
      runningIndex: faker.number.int({ min: 40, max: 65 }),
      fatPercentage: 30,
      carbohydratePercentage: 65,
      proteinPercentage: 5,
      hasRoute: true,
      heartRateZones: JSON.stringify([
        { index: 1, lower_limit: 95, upper_limit: 114, in_zone_seconds: 120 },
        { index: 2, lower_limit: 114, upper_limit: 133, in_zone_seconds: 600 },
        { index: 3, lower_limit: 133, upper_limit: 152, in_zone_seconds: 1500 },
        { index: 4, lower_limit: 152, upper_limit: 171, in_zone_seconds: 300 },
        { index: 5, lower_limit: 171, upper_limit: 190, in_zone_seconds: 0 },
      ]),
    }
  })
  .before('create', (_, exercise) => {
    const date = exercise.startDate ?? exercise.startTime?.slice(0, 10) ?? nextFactoryDate()
    fillUnset(exercise, { startDate: date, startTime: localTime(date, '18:30:00') })
    fillUnset(exercise, {
      uploadTime: `${exercise.startDate}T20:00:00Z`,
      trainingLoadPro: JSON.stringify({
        date: exercise.startDate,
        cardio_load: 85.5,
        muscle_load: null,
        perceived_load: 60,
        cardio_load_interpretation: 'MEDIUM',
        muscle_load_interpretation: 'NOT_AVAILABLE',
        perceived_load_interpretation: 'MEDIUM',
        user_rpe: 'MODERATE',
      }),
    })
  })
  .build()
