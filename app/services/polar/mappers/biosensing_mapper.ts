import { epochToLocal, isIsoDate, utcNaiveToLocal } from '#services/polar/local_times'
import type { WireBodyTemperature, WireEcg, WireSkinTemperature, WireSpo2 } from '#services/polar/wire_types'
import { dedupeBy, int, isRecord, json, num, positive, str } from '#services/polar/mappers/values'
import { roundTo } from '#services/polar/durations'

/** Columns of `spo2_tests` (model Spo2Test), without `userId`. */
export interface Spo2Row {
  /** Test instant in epoch milliseconds (Polar sends seconds or ms); the natural key. */
  testTimestamp: number
  /** Local test time `YYYY-MM-DD HH:MM:SS` (UTC + `time_zone_offset`). */
  testTime: string
  testDate: string
  timeZoneOffsetMinutes: number | null
  sourceDeviceId: string | null
  testStatus: string | null
  bloodOxygenPercent: number | null
  spo2Class: string | null
  spo2ValueDeviationFromBaseline: string | null
  spo2QualityAveragePercent: number | null
  averageHeartRateBpm: number | null
  heartRateVariabilityMs: number | null
  spo2HrvDeviationFromBaseline: string | null
  altitudeMeters: number | null
}

/** Columns of `ecg_tests` (model EcgTest), without `userId`. */
export interface EcgRow {
  testTimestamp: number
  testTime: string
  testDate: string
  timeZoneOffsetMinutes: number | null
  sourceDeviceId: string | null
  averageHeartRateBpm: number | null
  heartRateVariabilityMs: number | null
  heartRateVariabilityLevel: string | null
  rriMs: number | null
  pulseTransitTimeSystolicMs: number | null
  pulseTransitTimeDiastolicMs: number | null
  pulseTransitTimeQualityIndex: number | null
  sampleCount: number
  /** JSON `[{time_ms, amplitude_mv}]`. */
  samples: string | null
  /** JSON `[{time_ms, quality_level}]`. */
  qualityMeasurements: string | null
}

/** Columns of `body_temperatures` (model BodyTemperature), without `userId`. */
export interface BodyTemperatureRow {
  /** Local start when an offset is known (see {@link mapBodyTemperature}), else UTC. */
  startTime: string
  endTime: string | null
  startDate: string
  modifiedTime: string | null
  measurementType: string
  sensorLocation: string | null
  sourceDeviceId: string | null
  temperatureMinCelsius: number | null
  temperatureAvgCelsius: number | null
  temperatureMaxCelsius: number | null
  sampleCount: number
  /** JSON `[{time, offset_ms, temperature_celsius}]`. */
  samples: string | null
}

/** Columns of `skin_temperatures` (model SkinTemperature), without `userId`. */
export interface SkinTemperatureRow {
  sleepDate: string
  sleepTimeSkinTemperatureCelsius: number | null
  deviationFromBaselineCelsius: number | null
}

function testTime(epoch: unknown, offset: unknown) {
  const parsed = epochToLocal(epoch, offset)
  if (!parsed || parsed.utc === null) return null
  return { timestamp: Date.parse(parsed.utc), local: parsed.local }
}

/**
 * Maps one SpO2 test; null without a usable `test_time`. Epochs above 10^11 are read as
 * milliseconds, smaller ones as seconds (reference §9). Enum fields pass through unchanged.
 */
export function mapSpo2(wire: WireSpo2): Spo2Row | null {
  if (!isRecord(wire)) return null
  const time = testTime(wire.test_time, wire.time_zone_offset)
  if (!time) return null
  return {
    testTimestamp: time.timestamp,
    testTime: time.local,
    testDate: time.local.slice(0, 10),
    timeZoneOffsetMinutes: int(wire.time_zone_offset),
    sourceDeviceId: str(wire.source_device_id, 64),
    testStatus: str(wire.test_status, 80),
    bloodOxygenPercent: int(positive(wire.blood_oxygen_percent)),
    spo2Class: str(wire.spo2_class, 64),
    spo2ValueDeviationFromBaseline: str(wire.spo2_value_deviation_from_baseline, 64),
    spo2QualityAveragePercent: num(wire.spo2_quality_average_percent),
    averageHeartRateBpm: int(positive(wire.average_heart_rate_bpm)),
    heartRateVariabilityMs: num(wire.heart_rate_variability_ms),
    spo2HrvDeviationFromBaseline: str(wire.spo2_hrv_deviation_from_baseline, 64),
    altitudeMeters: num(wire.altitude_meters),
  }
}

/** Maps one ECG test (waveform and quality samples kept as JSON); null without a `test_time`. */
export function mapEcg(wire: WireEcg): EcgRow | null {
  if (!isRecord(wire)) return null
  const time = testTime(wire.test_time, wire.time_zone_offset)
  if (!time) return null
  const samples = (Array.isArray(wire.samples) ? wire.samples : []).filter(isRecord).map((s) => ({
    time_ms: num(s.recording_time_delta_ms),
    amplitude_mv: num(s.amplitude_mv),
  }))
  const quality = (Array.isArray(wire.quality_measurements) ? wire.quality_measurements : []).filter(isRecord).map((q) => ({
    time_ms: num(q.recording_time_delta_ms),
    quality_level: str(q.quality_level, 64),
  }))
  return {
    testTimestamp: time.timestamp,
    testTime: time.local,
    testDate: time.local.slice(0, 10),
    timeZoneOffsetMinutes: int(wire.time_zone_offset),
    sourceDeviceId: str(wire.source_device_id, 64),
    averageHeartRateBpm: int(positive(wire.average_heart_rate_bpm)),
    heartRateVariabilityMs: num(wire.heart_rate_variability_ms),
    heartRateVariabilityLevel: str(wire.heart_rate_variability_level, 64),
    rriMs: positive(wire.rri_ms),
    pulseTransitTimeSystolicMs: num(wire.pulse_transit_time_systolic_ms),
    pulseTransitTimeDiastolicMs: num(wire.pulse_transit_time_diastolic_ms),
    pulseTransitTimeQualityIndex: num(wire.pulse_transit_time_quality_index),
    sampleCount: samples.length,
    samples: json(samples),
    qualityMeasurements: json(quality),
  }
}

/**
 * Maps one body-temperature period; null without a readable `start_time`. Polar sends naive UTC
 * and no offset for this type: pass the user's `offsetMinutes` (e.g. from the same night's sleep)
 * to store local times, otherwise times stay UTC. Min/avg/max are over the samples, 2 dp.
 */
export function mapBodyTemperature(wire: WireBodyTemperature, offsetMinutes: number | null = null): BodyTemperatureRow | null {
  if (!isRecord(wire)) return null
  const start = utcNaiveToLocal(wire.start_time, offsetMinutes)
  if (!start) return null
  const startMs = Date.parse(`${start.local.replace(' ', 'T')}Z`)
  const samples = (Array.isArray(wire.samples) ? wire.samples : []).filter(isRecord).map((s) => {
    const delta = num(s.recording_time_delta_milliseconds)
    const at = delta === null ? null : new Date(startMs + delta).toISOString()
    return {
      time: at === null ? null : `${at.slice(0, 10)} ${at.slice(11, 19)}`,
      offset_ms: delta,
      temperature_celsius: num(s.temperature_celsius),
    }
  })
  const temps = samples.map((s) => s.temperature_celsius).filter((t): t is number => t !== null)
  const avg = temps.length ? temps.reduce((a, b) => a + b, 0) / temps.length : null
  return {
    startTime: start.local,
    endTime: utcNaiveToLocal(wire.end_time, offsetMinutes)?.local ?? null,
    startDate: start.local.slice(0, 10),
    modifiedTime: utcNaiveToLocal(wire.modified_time, offsetMinutes)?.local ?? null,
    measurementType: str(wire.measurement_type, 64) ?? 'TM_UNKNOWN',
    sensorLocation: str(wire.sensor_location, 64),
    sourceDeviceId: str(wire.source_device_id, 64),
    temperatureMinCelsius: temps.length ? roundTo(Math.min(...temps), 2) : null,
    temperatureAvgCelsius: avg === null ? null : roundTo(avg, 2),
    temperatureMaxCelsius: temps.length ? roundTo(Math.max(...temps), 2) : null,
    sampleCount: temps.length,
    samples: json(samples),
  }
}

/** Maps one nightly skin temperature; null without a valid `sleep_date`. */
export function mapSkinTemperature(wire: WireSkinTemperature): SkinTemperatureRow | null {
  if (!isRecord(wire) || !isIsoDate(wire.sleep_date)) return null
  return {
    sleepDate: wire.sleep_date,
    sleepTimeSkinTemperatureCelsius: num(wire.sleep_time_skin_temperature_celsius),
    deviationFromBaselineCelsius: num(wire.deviation_from_baseline_celsius),
  }
}

/** Maps SpO2 tests, one row per test instant. */
export function mapSpo2List(wires: WireSpo2[]): Spo2Row[] {
  return dedupeBy(wires.map(mapSpo2), (r) => String(r.testTimestamp))
}

/** Maps ECG tests, one row per test instant. */
export function mapEcgList(wires: WireEcg[]): EcgRow[] {
  return dedupeBy(wires.map(mapEcg), (r) => String(r.testTimestamp))
}

/** Maps body-temperature periods, one row per start time and measurement type. */
export function mapBodyTemperatureList(wires: WireBodyTemperature[], offsetMinutes: number | null = null): BodyTemperatureRow[] {
  return dedupeBy(wires.map((w) => mapBodyTemperature(w, offsetMinutes)), (r) => `${r.startTime}|${r.measurementType}`)
}

/** Maps nightly skin temperatures, one row per sleep date. */
export function mapSkinTemperatureList(wires: WireSkinTemperature[]): SkinTemperatureRow[] {
  return dedupeBy(wires.map(mapSkinTemperature), (r) => r.sleepDate)
}
