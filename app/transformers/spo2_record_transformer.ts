import { BaseTransformer } from '@adonisjs/core/transformers'
import type Spo2Test from '#models/spo2_test'
import { toInteger } from '#services/records/units'

/** Spec "Blood oxygen (SpO2) record"; `test_time` is the local time of the test. */
export default class Spo2RecordTransformer extends BaseTransformer<Spo2Test> {
  toObject() {
    const test = this.resource
    return {
      test_time: test.testTime,
      blood_oxygen_percent: toInteger(test.bloodOxygenPercent),
      spo2_class: test.spo2Class,
      avg_heart_rate: toInteger(test.averageHeartRateBpm),
      hrv_ms: test.heartRateVariabilityMs,
      altitude_meters: test.altitudeMeters,
    }
  }
}
