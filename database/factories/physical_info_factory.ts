import factory from '@adonisjs/lucid/factories'
import PhysicalInfo from '#models/physical_info'
import { fillUnset, nextFactoryDate } from '#database/factories/sequence'

/**
 * One version of the physical settings (the reference §1.6 example), stamped at noon UTC of its
 * `date`. Merge `userId` and usually `date`.
 */
export const PhysicalInfoFactory = factory
  .define(PhysicalInfo, () => ({
    date: nextFactoryDate(),
    weightKg: 70.5,
    heightCm: 175,
    vo2Max: 50,
    maxHeartRate: 190,
    restingHeartRate: 60,
    aerobicThreshold: 140,
    anaerobicThreshold: 170,
    sleepGoal: 'PT8H',
    sleepGoalMinutes: 480,
    weightSource: 'SOURCE_USER',
    trainingBackground: 'REGULAR',
    typicalDay: 'MOSTLY_MOVING',
    gender: 'MALE',
    birthday: '1990-01-01',
  }))
  .before('create', (_, info) => {
    fillUnset(info, { measuredAt: `${info.date}T12:00:00Z` })
  })
  .build()
