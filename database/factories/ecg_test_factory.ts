import factory from '@adonisjs/lucid/factories'
import { DateTime } from 'luxon'
import EcgTest from '#models/ecg_test'
import { localTime, nextFactoryDate } from '#database/factories/sequence'

/** An ECG test at 10:00 UTC with a short waveform. Merge `userId`; move it with `testTimestamp`, `testTime`, `testDate`. */
export const EcgTestFactory = factory
  .define(EcgTest, ({ faker }) => {
    const date = nextFactoryDate()
    return {
      testTimestamp: DateTime.fromISO(`${date}T10:00:00Z`).toMillis(),
      testTime: localTime(date, '10:00:00'),
      testDate: date,
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
        { recording_time_delta_ms: 0, amplitude_mv: 0.1 },
        { recording_time_delta_ms: 8, amplitude_mv: 0.35 },
        { recording_time_delta_ms: 16, amplitude_mv: -0.05 },
      ]),
      qualityMeasurements: JSON.stringify([{ recording_time_delta_ms: 0, quality_level: 'ECG_QUALITY_HIGH' }]),
    }
  })
  .build()
