import type { WireBodyTemperature, WireEcg, WireSkinTemperature, WireSpo2 } from '#services/polar/wire_types'
import { clamp, rngFor, round } from '#simulators/polar/random'
import { MINUTE_MS, dayNumber, utcNaive } from '#simulators/polar/sim_time'
import type { SimUser } from '#simulators/polar/user_model'

function hasSensors(u: SimUser, date: string): boolean {
  return u.profile.biosensing && !u.isMissing(date)
}

/** Epoch of a local wall time, in seconds or milliseconds as the user's device sends it. */
function epoch(u: SimUser, wallMs: number): number {
  const ms = wallMs - u.profile.tzOffsetMinutes * MINUTE_MS
  return u.profile.epochMilliseconds ? ms : Math.floor(ms / 1000)
}

/** SpO2 tests taken on `date` (a morning test on about 40 % of days). */
export function spo2For(u: SimUser, date: string): WireSpo2[] {
  if (!hasSensors(u, date)) return []
  const rng = rngFor(u.key, 'spo2', dayNumber(date))
  const night = u.night(date)
  if (!night || !rng.chance(0.4)) return []
  const at = night.endMs + rng.int(15, 75) * MINUTE_MS
  const passed = rng.chance(0.88)
  const percent = clamp(Math.round(rng.normal(96.5, 1.4)), 88, 100)
  const test: WireSpo2 = {
    source_device_id: u.profile.deviceId,
    test_time: epoch(u, at),
    time_zone_offset: u.profile.tzOffsetMinutes,
    test_status: passed ? 'SPO2_TEST_PASSED' : rng.pick(['SPO2_TEST_INCONCLUSIVE_TOO_LOW_QUALITY_IN_SAMPLES', 'SPO2_TEST_INCONCLUSIVE_TOO_MANY_MISSING_SAMPLES']),
    spo2_quality_average_percent: round(rng.range(passed ? 75 : 40, passed ? 99 : 70), 1),
    average_heart_rate_bpm: night.restingHr + rng.int(4, 14),
    heart_rate_variability_ms: round(night.hrv * rng.range(0.8, 1.2), 1),
    spo2_hrv_deviation_from_baseline: rng.pick(['DEVIATION_USUAL', 'DEVIATION_USUAL', 'DEVIATION_BELOW_USUAL', 'DEVIATION_ABOVE_USUAL']),
    altitude_meters: round(rng.range(5, 60), 1),
  }
  if (passed) {
    test.blood_oxygen_percent = percent
    test.spo2_class = percent >= 95 ? 'SPO2_CLASS_NORMAL' : percent >= 92 ? 'SPO2_CLASS_LOW' : 'SPO2_CLASS_VERY_LOW'
    test.spo2_value_deviation_from_baseline = rng.pick(['DEVIATION_USUAL', 'DEVIATION_USUAL', 'DEVIATION_NO_BASELINE', 'DEVIATION_BELOW_USUAL'])
  } else {
    test.spo2_class = 'SPO2_CLASS_UNKNOWN'
  }
  return [test]
}

/** ECG tests taken on `date` (about one a week; 2 s of 130 Hz waveform). */
export function ecgFor(u: SimUser, date: string): WireEcg[] {
  if (!hasSensors(u, date)) return []
  const rng = rngFor(u.key, 'ecg', dayNumber(date))
  const night = u.night(date)
  if (!night || !rng.chance(0.15)) return []
  const at = night.endMs + rng.int(2, 12) * 60 * MINUTE_MS
  const hr = night.restingHr + rng.int(6, 16)
  const beatMs = 60_000 / hr
  const samples = Array.from({ length: 260 }, (_, i) => {
    const t = (i * (1000 / 130)) % beatMs
    const spike = Math.exp(-(((t - 200) / 12) ** 2)) * 1.1 - Math.exp(-(((t - 225) / 10) ** 2)) * 0.3
    const wave = Math.exp(-(((t - 420) / 50) ** 2)) * 0.25 + Math.exp(-(((t - 110) / 30) ** 2)) * 0.12
    return { recording_time_delta_ms: Math.round(i * (1000 / 130)), amplitude_mv: round(spike + wave + rng.normal(0, 0.01), 3) }
  })
  return [
    {
      source_device_id: u.profile.deviceId,
      test_time: epoch(u, at),
      time_zone_offset: u.profile.tzOffsetMinutes,
      average_heart_rate_bpm: hr,
      heart_rate_variability_ms: round(night.hrv * rng.range(0.85, 1.15), 1),
      heart_rate_variability_level: rng.pick(['ECG_HRV_LEVEL_USUAL', 'ECG_HRV_LEVEL_USUAL', 'ECG_HRV_LEVEL_BELOW_USUAL', 'ECG_HRV_LEVEL_ABOVE_USUAL']),
      rri_ms: round(beatMs, 1),
      pulse_transit_time_systolic_ms: round(rng.range(180, 240), 1),
      pulse_transit_time_diastolic_ms: round(rng.range(200, 270), 1),
      pulse_transit_time_quality_index: round(rng.range(60, 100), 1),
      samples,
      quality_measurements: [0, 500, 1000, 1500].map((ms) => ({
        recording_time_delta_ms: ms,
        quality_level: rng.chance(0.9) ? 'ECG_QUALITY_HIGH' : 'ECG_QUALITY_LOW',
      })),
    },
  ]
}

/** Wrist temperature through the night ending on `date` (one period, a sample every 10 minutes). */
export function bodyTemperatureFor(u: SimUser, date: string): WireBodyTemperature[] {
  if (!hasSensors(u, date)) return []
  const night = u.night(date)
  if (!night || night.partial) return []
  const rng = rngFor(u.key, 'body-temp', dayNumber(date))
  const tz = u.profile.tzOffsetMinutes
  const start = Math.floor(night.startMs / MINUTE_MS) * MINUTE_MS
  const end = Math.floor(night.endMs / MINUTE_MS) * MINUTE_MS
  const baseTemp = 34.2 + rng.normal(0, 0.25)
  const samples: NonNullable<WireBodyTemperature['samples']> = []
  for (let delta = 0; start + delta < end; delta += 10 * MINUTE_MS) {
    const curve = 0.6 * Math.sin((delta / (end - start)) * Math.PI)
    samples.push({ temperature_celsius: round(baseTemp + curve + rng.normal(0, 0.05), 2), recording_time_delta_milliseconds: delta })
  }
  return [
    {
      source_device_id: u.profile.deviceId,
      measurement_type: 'TM_SKIN_TEMPERATURE',
      sensor_location: 'SL_DISTAL',
      start_time: utcNaive(start, tz),
      end_time: utcNaive(end, tz),
      modified_time: utcNaive(end + 20 * MINUTE_MS, tz),
      samples,
    },
  ]
}

/** Nightly skin temperature and its deviation from the user's baseline. */
export function skinTemperatureFor(u: SimUser, date: string): WireSkinTemperature | null {
  if (!hasSensors(u, date)) return null
  const night = u.night(date)
  if (!night) return null
  const rng = rngFor(u.key, 'skin-temp', dayNumber(date))
  const deviation = round(rng.chance(0.06) ? rng.range(0.5, 1.2) : rng.normal(0, 0.2), 1)
  return {
    sleep_time_skin_temperature_celsius: round(34.1 + deviation + rng.normal(0, 0.05), 1),
    deviation_from_baseline_celsius: deviation,
    sleep_date: date,
  }
}
