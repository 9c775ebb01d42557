/**
 * AccessLink v3 wire objects as Polar sends them (reference §1–§9). Every field is optional:
 * Polar leaves keys out rather than sending null, and partial nights carry only a few keys.
 * Key spelling is Polar's own, including kebab-case keys inside snake_case objects.
 */

/** `"HH:MM"` → value map of sleep and recharge samples (local wall clock, rolls over midnight). */
export type ClockSeries<T> = Record<string, T>

/** Sleep night, `GET /v3/users/sleep` → `{nights: [...]}` (§2). Stage lengths are integer seconds. */
export interface WireSleep {
  polar_user?: string
  date?: string
  sleep_start_time?: string
  sleep_end_time?: string
  device_id?: string
  continuity?: number
  continuity_class?: number
  light_sleep?: number
  deep_sleep?: number
  rem_sleep?: number
  unrecognized_sleep_stage?: number
  sleep_score?: number
  total_interruption_duration?: number
  sleep_charge?: number
  sleep_goal?: number
  sleep_rating?: number
  short_interruption_duration?: number
  long_interruption_duration?: number
  sleep_cycles?: number
  group_duration_score?: number
  group_solidity_score?: number
  group_regeneration_score?: number
  hypnogram?: ClockSeries<number>
  heart_rate_samples?: ClockSeries<number>
}

/** Nightly Recharge, `GET /v3/users/nightly-recharge` → `{recharges: [...]}` (§3). */
export interface WireNightlyRecharge {
  polar_user?: string
  date?: string
  heart_rate_avg?: number
  beat_to_beat_avg?: number
  heart_rate_variability_avg?: number
  breathing_rate_avg?: number
  nightly_recharge_status?: number
  ans_charge?: number
  ans_charge_status?: number
  hrv_samples?: ClockSeries<number>
  breathing_samples?: ClockSeries<number>
}

/** Day-sample object of the activity API (§4.1). */
export interface WireActivityDaySamples {
  date?: string
  steps?: {
    interval_ms?: number
    total_steps?: number
    samples?: Array<{ steps?: number | null; timestamp?: string }>
  }
  activity_zones?: { samples?: Array<{ zone?: string; timestamp?: string }> }
  inactivity_stamps?: Array<{ stamp?: string }> | { samples?: Array<{ timestamp?: string }> }
}

/** Daily activity summary, `GET /v3/users/activities?from&to` → bare array (§4.1). */
export interface WireDailyActivity {
  start_time?: string
  end_time?: string
  active_duration?: string
  inactive_duration?: string
  daily_activity?: number
  calories?: number
  active_calories?: number
  steps?: number
  inactivity_alert_count?: number
  distance_from_steps?: number
  samples?: WireActivityDaySamples
}

/** Heart-rate zone of an exercise detail fetched with `zones=true` (kebab-case keys). */
export interface WireHeartRateZone {
  'index'?: number
  'lower-limit'?: number
  'upper-limit'?: number
  'in-zone'?: string
}

/**
 * Sample stream of an exercise detail fetched with `samples=true`: `data` is comma-separated and
 * may hold `null` entries; `recording-rate` (seconds) is null for RR intervals; live answers send
 * `sample-type` as an integer as well as the documented string.
 */
export interface WireExerciseSample {
  'recording-rate'?: number | null
  'sample-type'?: string | number
  'data'?: string
}

/** GPS point of an exercise detail fetched with `route=true`; `time` is the ISO offset from the start (`PT210.026S`). */
export interface WireRoutePoint {
  latitude?: number
  longitude?: number
  time?: string
  satellites?: number
  fix?: number
}

/** Training Load Pro block of an exercise (kebab-case keys). */
export interface WireTrainingLoadPro {
  'date'?: string
  'cardio-load'?: number
  'muscle-load'?: number
  'perceived-load'?: number
  'cardio-load-interpretation'?: string
  'muscle-load-interpretation'?: string
  'perceived-load-interpretation'?: string
  'user-rpe'?: string
}

/** Exercise, `GET /v3/exercises` (bare array) and `GET /v3/exercises/{id}` (§5.1). */
export interface WireExercise {
  'id'?: string
  'upload_time'?: string
  'polar_user'?: string
  'device'?: string
  'device_id'?: string
  'start_time'?: string
  'start_time_utc_offset'?: number
  'duration'?: string
  'calories'?: number
  'distance'?: number
  'heart_rate'?: { average?: number; maximum?: number }
  'training_load'?: number
  'sport'?: string
  'has_route'?: boolean
  'club_id'?: number
  'club_name'?: string
  'detailed_sport_info'?: string
  'fat_percentage'?: number
  'carbohydrate_percentage'?: number
  'protein_percentage'?: number
  'running-index'?: number
  'heart_rate_zones'?: WireHeartRateZone[]
  'samples'?: WireExerciseSample[]
  'route'?: WireRoutePoint[]
  'training_load_pro'?: WireTrainingLoadPro
}

/** Cardio load day, `GET /v3/users/cardio-load/date?from&to` → bare array (§6); `-1.0` = n/a. */
export interface WireCardioLoad {
  date?: string
  cardio_load_status?: string
  cardio_load?: number
  strain?: number
  tolerance?: number
  cardio_load_ratio?: number
  cardio_load_level?: {
    'very_low'?: number
    'low'?: number
    'medium'?: number
    'high'?: number
    'very_high'?: number
    'very-high'?: number
  }
}

/** One continuous heart-rate sample; `sample_time` is device-local `HH:mm:ss`. */
export interface WireHeartRateSample {
  heart_rate?: number | null
  sample_time?: string
}

/** Continuous heart-rate day (§7). The range call may wrap days in `{heart_rates: [...]}`. */
export interface WireContinuousHeartRateDay {
  polar_user?: string
  date?: string
  heart_rate_samples?: WireHeartRateSample[]
}

/** SleepWise alertness period (§8); times are naive UTC, some with fractional seconds. */
export interface WireSleepwiseAlertness {
  grade?: number
  grade_validity_seconds?: number
  grade_type?: string
  grade_classification?: string
  validity?: string
  sleep_inertia?: string
  sleep_type?: string
  result_type?: string
  period_start_time?: string
  period_end_time?: string
  sleep_period_start_time?: string
  sleep_period_end_time?: string
  sleep_timezone_offset_minutes?: number
  hourly_data?: Array<{ validity?: string; alertness_level?: string; start_time?: string; end_time?: string }>
}

/** SleepWise circadian bedtime period (§8); times are naive UTC. */
export interface WireSleepwiseBedtime {
  validity?: string
  quality?: string
  result_type?: string
  period_start_time?: string
  period_end_time?: string
  preferred_sleep_period_start_time?: string
  preferred_sleep_period_end_time?: string
  sleep_gate_start_time?: string
  sleep_gate_end_time?: string
  sleep_timezone_offset_minutes?: number
}

/** SpO2 test (§9); `test_time` is epoch seconds or milliseconds, `time_zone_offset` minutes. */
export interface WireSpo2 {
  source_device_id?: string
  test_time?: number
  time_zone_offset?: number
  test_status?: string
  blood_oxygen_percent?: number
  spo2_class?: string
  spo2_value_deviation_from_baseline?: string
  spo2_quality_average_percent?: number
  average_heart_rate_bpm?: number
  heart_rate_variability_ms?: number
  spo2_hrv_deviation_from_baseline?: string
  altitude_meters?: number
}

/** ECG test (§9); same time conventions as SpO2. */
export interface WireEcg {
  source_device_id?: string
  test_time?: number
  time_zone_offset?: number
  average_heart_rate_bpm?: number
  heart_rate_variability_ms?: number
  heart_rate_variability_level?: string
  rri_ms?: number
  pulse_transit_time_systolic_ms?: number
  pulse_transit_time_diastolic_ms?: number
  pulse_transit_time_quality_index?: number
  samples?: Array<{ recording_time_delta_ms?: number; amplitude_mv?: number }>
  quality_measurements?: Array<{ recording_time_delta_ms?: number; quality_level?: string }>
}

/** Body-temperature period (§9); times naive UTC, sample deltas in ms from `start_time`. */
export interface WireBodyTemperature {
  source_device_id?: string
  measurement_type?: string
  sensor_location?: string
  start_time?: string
  end_time?: string
  modified_time?: string
  samples?: Array<{ temperature_celsius?: number; recording_time_delta_milliseconds?: number }>
}

/** Nightly skin temperature (§9). */
export interface WireSkinTemperature {
  sleep_time_skin_temperature_celsius?: number
  deviation_from_baseline_celsius?: number
  sleep_date?: string
}

/** Token endpoint answer (§1.2). */
export interface WireTokenResponse {
  access_token: string
  token_type: string
  expires_in?: number
  x_user_id: number
}

/** User object of `POST /v3/users` and `GET /v3/users/{id}` (all kebab-case, §1.3). */
export interface WireUser {
  'polar-user-id'?: number
  'member-id'?: string
  'registration-date'?: string
  'first-name'?: string
  'last-name'?: string
  'birthdate'?: string
  'gender'?: string
  'weight'?: number
  'height'?: number
  'extra-info'?: Array<{ value?: string; index?: number; name?: string }> | null
}

/**
 * Physical information, `GET /v3/users/physical-info` (§1.6, non-transactional): the user's current
 * settings. `created` / `modified` are UTC timestamps (`…Z`); `sleep_goal` an ISO duration.
 */
export interface WirePhysicalInfo {
  weight?: number
  height?: number
  created?: string
  modified?: string
  birthday?: string
  gender?: string
  maximum_heart_rate?: number
  resting_heart_rate?: number
  aerobic_threshold?: number
  anaerobic_threshold?: number
  vo2_max?: number
  weight_source?: string
  training_background?: string
  typical_day?: string
  sleep_goal?: string
}
