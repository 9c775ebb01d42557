import factory from '@adonisjs/lucid/factories'
import Spo2Test from '#models/spo2_test'
import { epochMs, fillUnset, localTime, nextFactoryDate } from '#database/factories/sequence'

/** A passed SpO2 test at 09:00 UTC. Merge `userId` and usually `testDate` (or `testTime`). */
export const Spo2TestFactory = factory
  .define(Spo2Test, ({ faker }) => ({
    timeZoneOffsetMinutes: 0,
    sourceDeviceId: 'A1B2C3D4',
    testStatus: 'SPO2_TEST_PASSED',
    bloodOxygenPercent: faker.number.int({ min: 94, max: 99 }),
    spo2Class: 'SPO2_CLASS_NORMAL',
    spo2ValueDeviationFromBaseline: 'DEVIATION_USUAL',
    spo2QualityAveragePercent: 92.5,
    averageHeartRateBpm: faker.number.int({ min: 50, max: 75 }),
    heartRateVariabilityMs: faker.number.float({ min: 20, max: 90, fractionDigits: 1 }),
    spo2HrvDeviationFromBaseline: 'DEVIATION_USUAL',
    altitudeMeters: 120.5,
  }))
  .before('create', (_, test) => {
    const date = test.testDate ?? test.testTime?.slice(0, 10) ?? nextFactoryDate()
    const time = test.testTime?.slice(11) ?? '09:00:00'
    fillUnset(test, { testDate: date, testTime: localTime(date, time), testTimestamp: epochMs(date, time) })
  })
  .build()
