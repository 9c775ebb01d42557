import { BaseTransformer } from '@adonisjs/core/transformers'
import type EcgTest from '#models/ecg_test'
import { parseJson } from '#services/records/units'

type Json = Record<string, unknown>

/**
 * An ECG test with every stored field (the spec leaves them open): local
 * time and UTC instant, heart rate, HRV, RR interval, pulse transit times,
 * the waveform (ms from the start, mV) and the signal-quality levels.
 */
export default class EcgRecordTransformer extends BaseTransformer<EcgTest> {
  toObject() {
    const test = this.resource
    const samples = parseJson<Json[]>(test.samples)
    const quality = parseJson<Json[]>(test.qualityMeasurements)
    return {
      id: Number(test.id),
      test_time: test.testTime,
      test_timestamp_ms: Number(test.testTimestamp),
      time_zone_offset_minutes: test.timeZoneOffsetMinutes,
      device_id: test.sourceDeviceId,
      average_heart_rate_bpm: test.averageHeartRateBpm,
      heart_rate_variability_ms: test.heartRateVariabilityMs,
      heart_rate_variability_level: test.heartRateVariabilityLevel,
      rri_ms: test.rriMs,
      pulse_transit_time_systolic_ms: test.pulseTransitTimeSystolicMs,
      pulse_transit_time_diastolic_ms: test.pulseTransitTimeDiastolicMs,
      pulse_transit_time_quality_index: test.pulseTransitTimeQualityIndex,
      sample_count: test.sampleCount,
      samples: Array.isArray(samples)
        ? samples.map((sample) => ({ time_ms: sample.time_ms ?? null, amplitude_mv: sample.amplitude_mv ?? null }))
        : null,
      quality_measurements: Array.isArray(quality)
        ? quality.map((level) => ({ time_ms: level.time_ms ?? null, quality_level: level.quality_level ?? null }))
        : null,
    }
  }
}
