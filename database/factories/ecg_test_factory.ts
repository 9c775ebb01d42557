import factory from '@adonisjs/lucid/factories'
import EcgTest from '#models/ecg_test'
import { epochMs, fillUnset, localTime, nextFactoryDate } from '#database/factories/sequence'

/** An ECG test at 10:00 UTC with a short waveform. Merge `userId` and usually `testDate` (or `testTime`). */
export const EcgTestFactory = factory
  .define(EcgTest, ({ faker }) => ({
    timeZoneOffsetMinutes: 0,
    sourceDeviceId: 'A1B2C3D4',
    averageHeartRateBpm: faker.number.int({ min: 50, max: 75 }),
    heartRateVariabilityMs: faker.number.float({ min: 20, max: 90, fractionDigits: 1 }),
    heartRateVariabilityLevel: 'ECG_HRV_LEVEL_USUAL',
    rriMs: 1000,
    pulseTransitTimeSystolicMs: 210.5,
    pulseTransitTimeDiastolicMs: 250.25,
    pulseTransitTimeQualityIndex: 80,
    sampleCount: 3,
    samples: JSON.stringify([
      { time_ms: 0, amplitude_mv: 0.1 },
      { time_ms: 8, amplitude_mv: 0.35 },
      { time_ms: 16, amplitude_mv: -0.05 },
    ]),
    qualityMeasurements: JSON.stringify([{ time_ms: 0, quality_level: 'ECG_QUALITY_HIGH' }]),
  }))
  .before('create', (_, test) => {
    const date = test.testDate ?? test.testTime?.slice(0, 10) ?? nextFactoryDate()
    const time = test.testTime?.slice(11) ?? '10:00:00'
    fillUnset(test, { testDate: date, testTime: localTime(date, time), testTimestamp: epochMs(date, time) })
  })
  .build()
