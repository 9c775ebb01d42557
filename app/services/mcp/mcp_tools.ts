import * as z from 'zod'
import SyncRun from '#models/sync_run'
import { SleepService } from '#services/records/sleep_service'
import { RechargeService } from '#services/records/recharge_service'
import { ActivityService } from '#services/records/activity_service'
import { ExerciseService } from '#services/records/exercise_service'
import { DailySeriesService } from '#services/records/daily_series_service'
import { HeartRateSamplesService } from '#services/records/heart_rate_samples_service'
import { BiosensingService } from '#services/records/biosensing_service'
import { SleepwiseService } from '#services/records/sleepwise_service'
import { BaselineService } from '#services/analytics/baseline_service'
import { PatternService } from '#services/analytics/pattern_service'
import { AnomalyService } from '#services/analytics/anomaly_service'
import { InsightsService } from '#services/analytics/insights_service'
import { TodayService } from '#services/analytics/today_service'
import { AnalyticsStatusService } from '#services/analytics/analytics_status_service'
import { METRIC_NAMES, PATTERN_NAMES, fmtMetric, isMetricName, type MetricName } from '#services/analytics/metrics'
import { AdminSyncService } from '#services/admin/admin_sync_service'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { MAX_TRIGGER_DAYS, maxTriggerDays } from '#services/sync/sync_trigger_service'
import { UserService } from '#services/user_service'
import SleepRecordTransformer from '#transformers/sleep_record_transformer'
import SleepNightTransformer from '#transformers/sleep_night_transformer'
import NightlyRechargeTransformer from '#transformers/nightly_recharge_transformer'
import ActivityRecordTransformer from '#transformers/activity_record_transformer'
import ActivityDayTransformer from '#transformers/activity_day_transformer'
import ExerciseRecordTransformer from '#transformers/exercise_record_transformer'
import ExerciseDetailTransformer from '#transformers/exercise_detail_transformer'
import HeartRateSummaryTransformer from '#transformers/heart_rate_summary_transformer'
import HeartRateSamplesTransformer from '#transformers/heart_rate_samples_transformer'
import CardioLoadTransformer from '#transformers/cardio_load_transformer'
import Spo2RecordTransformer from '#transformers/spo2_record_transformer'
import EcgRecordTransformer from '#transformers/ecg_record_transformer'
import BodyTemperatureTransformer from '#transformers/body_temperature_transformer'
import SkinTemperatureTransformer from '#transformers/skin_temperature_transformer'
import SleepwiseAlertnessTransformer from '#transformers/sleepwise_alertness_transformer'
import SleepwiseBedtimeTransformer from '#transformers/sleepwise_bedtime_transformer'
import BaselineTransformer from '#transformers/baseline_transformer'
import BaselineCheckTransformer from '#transformers/baseline_check_transformer'
import PatternTransformer from '#transformers/pattern_transformer'
import AnomalyScanTransformer from '#transformers/anomaly_scan_transformer'
import InsightsTransformer from '#transformers/insights_transformer'
import TodayTransformer from '#transformers/today_transformer'
import AnalyticsStatusTransformer from '#transformers/analytics_status_transformer'
import SyncRunTransformer from '#transformers/admin/sync_run_transformer'
import { ToolError, dateInput, daysInput, defineTool, type McpTool, type ToolCall } from '#services/mcp/mcp_tool'
import { count, facts, listSummary, num, sentence, stalenessNote, withUnit, type ListDescription } from '#services/mcp/mcp_summaries'

/*
|--------------------------------------------------------------------------
| The MCP tools
|--------------------------------------------------------------------------
|
| Each tool answers with exactly the JSON of its REST route (the same
| service and transformer, the same `days` default and limits) plus a short
| text summary. The first ten carry polar-flow-server's tool names.
|
*/

/** `days` of the raw-data lists (GET /users/{id}/activity etc.): 1–365 (listRecordsValidator). */
const RECORD_DAYS_MAX = 365
/** `days` of the SleepWise lists: 1–30 (listSleepwiseValidator). */
const SLEEPWISE_DAYS_MAX = 30

const SLEEP: ListDescription = {
  noun: 'sleep records', daily: true,
  type: 'sleep',
  units: 'sleep stages in hours, hrv_avg in ms (RMSSD, from the same night’s Nightly Recharge), heart_rate_avg in bpm, sleep_score 1–100',
  dateOf: (r) => r.date,
  latest: (r) =>
    facts([
      ['score', withUnit(r.sleep_score, '')],
      ['asleep', withUnit(r.total_sleep_hours, ' h')],
      ['HRV', withUnit(r.hrv_avg, ' ms')],
    ]),
}

const RECHARGE: ListDescription = {
  noun: 'Nightly Recharge records', daily: true,
  type: 'recharge',
  units: 'hrv_avg in ms (RMSSD), heart_rate_avg in bpm, breathing_rate_avg in breaths/min, ans_charge −10…+10 against the user’s usual level, ans_charge_status much_below_usual … much_above_usual',
  dateOf: (r) => r.date,
  latest: (r) =>
    facts([
      ['HRV', withUnit(r.hrv_avg, ' ms')],
      ['heart rate', withUnit(r.heart_rate_avg, ' bpm')],
      ['ANS charge', withUnit(r.ans_charge, '')],
    ]),
}

const ACTIVITY: ListDescription = {
  noun: 'activity days', daily: true,
  type: 'activity',
  units: 'steps, calories in kcal, distance in km, active_minutes in minutes, activity_score = Polar’s daily activity in % of the goal (may exceed 100)',
  dateOf: (r) => r.date,
  latest: (r) =>
    facts([
      ['steps', withUnit(r.steps, '')],
      ['active', withUnit(r.active_minutes, ' min')],
      ['calories', withUnit(r.calories_total, ' kcal')],
    ]),
}

const EXERCISES: ListDescription = {
  noun: 'exercise sessions', daily: false,
  type: 'exercises',
  units: 'duration in minutes, distance in km, calories in kcal, heart rate in bpm, training_load = Polar cardio load',
  dateOf: (r) => String(r.start_time).slice(0, 10),
  latest: (r) =>
    facts([
      ['sport', r.sport ?? null],
      ['duration', withUnit(r.duration_minutes, ' min')],
      ['average heart rate', withUnit(r.average_heart_rate, ' bpm')],
    ]),
}

const HEART_RATE: ListDescription = {
  noun: 'daily heart-rate summaries', daily: true,
  type: 'heart_rate',
  units: 'bpm from Polar continuous heart rate (the daily minimum is not the resting heart rate)',
  dateOf: (r) => r.date,
  latest: (r) =>
    facts([
      ['min', withUnit(r.hr_min, ' bpm')],
      ['avg', withUnit(r.hr_avg, ' bpm')],
      ['max', withUnit(r.hr_max, ' bpm')],
    ]),
}

const CARDIO_LOAD: ListDescription = {
  noun: 'cardio load days', daily: true,
  type: 'cardio_load',
  units: 'Polar Training Load Pro units: strain (acute, 7 days), tolerance (chronic, 28 days), cardio_load (the day), cardio_load_ratio = strain / tolerance, cardio_load_status is Polar’s label for it',
  dateOf: (r) => r.date,
  latest: (r) =>
    facts([
      ['load', withUnit(r.cardio_load, '')],
      ['ratio', withUnit(r.cardio_load_ratio, '')],
      ['status', r.cardio_load_status ?? null],
    ]),
}

/** The biosensing metrics of get_biosensing: REST path, service call, transformer, limits. */
const BIOSENSING = {
  spo2: {
    route: 'spo2',
    defaultDays: 30,
    maxDays: RECORD_DAYS_MAX,
    load: async (call: ToolCall, days: number) =>
      Spo2RecordTransformer.transform(await (await call.make(BiosensingService)).spo2(call.userId, days)),
    description: {
      noun: 'SpO2 tests', daily: false,
      type: 'spo2',
      units: 'blood_oxygen_percent in %, heart rate in bpm, hrv_ms in ms, altitude in m',
      dateOf: (r: any) => String(r.test_time).slice(0, 10),
    },
  },
  ecg: {
    route: 'ecg',
    defaultDays: 30,
    maxDays: RECORD_DAYS_MAX,
    load: async (call: ToolCall, days: number) =>
      EcgRecordTransformer.transform(await (await call.make(BiosensingService)).ecg(call.userId, days)),
    description: {
      noun: 'ECG tests', daily: false,
      type: 'ecg',
      units: 'heart rate in bpm, heart_rate_variability_ms and rri_ms in ms, waveform samples as amplitude_mv in mV',
      dateOf: (r: any) => String(r.test_time).slice(0, 10),
    },
  },
  body_temperature: {
    route: 'temperature/body',
    defaultDays: 30,
    maxDays: RECORD_DAYS_MAX,
    load: async (call: ToolCall, days: number) =>
      BodyTemperatureTransformer.transform(await (await call.make(BiosensingService)).bodyTemperature(call.userId, days)),
    description: {
      noun: 'body temperature periods', daily: false,
      type: 'body_temperature',
      units: 'degrees Celsius',
      dateOf: (r: any) => String(r.start_time).slice(0, 10),
    },
  },
  skin_temperature: {
    route: 'temperature/skin',
    defaultDays: 30,
    maxDays: RECORD_DAYS_MAX,
    load: async (call: ToolCall, days: number) =>
      SkinTemperatureTransformer.transform(await (await call.make(BiosensingService)).skinTemperature(call.userId, days)),
    description: {
      noun: 'nightly skin temperatures', daily: true,
      type: 'skin_temperature',
      units: 'degrees Celsius; deviation_from_baseline_celsius against the user’s own baseline',
      dateOf: (r: any) => r.sleep_date,
    },
  },
  heart_rate: {
    route: 'heart-rate',
    defaultDays: 30,
    maxDays: RECORD_DAYS_MAX,
    load: async (call: ToolCall, days: number) =>
      HeartRateSummaryTransformer.transform(await (await call.make(DailySeriesService)).heartRate(call.userId, days)),
    description: HEART_RATE,
  },
  alertness: {
    route: 'sleepwise/alertness',
    defaultDays: 7,
    maxDays: SLEEPWISE_DAYS_MAX,
    load: async (call: ToolCall, days: number) =>
      SleepwiseAlertnessTransformer.transform(await (await call.make(SleepwiseService)).alertness(call.userId, days)),
    description: {
      noun: 'SleepWise alertness periods', daily: true,
      type: 'sleepwise_alertness',
      units: 'grade is Polar’s alertness grade (higher is more alert) with its classification; local times',
      dateOf: (r: any) => String(r.period_start_time).slice(0, 10),
    },
  },
  bedtime: {
    route: 'sleepwise/bedtime',
    defaultDays: 7,
    maxDays: SLEEPWISE_DAYS_MAX,
    load: async (call: ToolCall, days: number) =>
      SleepwiseBedtimeTransformer.transform(await (await call.make(SleepwiseService)).bedtime(call.userId, days)),
    description: {
      noun: 'SleepWise bedtime recommendations', daily: true,
      type: 'sleepwise_bedtime',
      units: 'local times of the preferred sleep window and the sleep gate',
      dateOf: (r: any) => String(r.period_start_time).slice(0, 10),
    },
  },
} as const satisfies Record<
  string,
  {
    route: string
    defaultDays: number
    maxDays: number
    load: (call: ToolCall, days: number) => Promise<unknown>
    description: ListDescription
  }
>

type BiosensingMetric = keyof typeof BIOSENSING
const BIOSENSING_METRICS = Object.keys(BIOSENSING) as [BiosensingMetric, ...BiosensingMetric[]]

/** A list answer: REST JSON and its summary. */
async function listAnswer(call: ToolCall, description: ListDescription, days: number, resource: unknown) {
  const data = (await call.serialize(resource)) as any[]
  return { data, summary: await listSummary(call, description, days, data) }
}

/** One baseline's value for texts. */
function baselineFact(metric: string, value: number | null) {
  if (value === null) return 'none yet'
  return isMetricName(metric) ? fmtMetric(metric as MetricName, value) : String(value)
}

export const MCP_TOOLS: McpTool<any>[] = [
  defineTool({
    name: 'get_sleep',
    title: 'Sleep',
    description:
      'Sleep of the last `days` nights (default 7), newest first: sleep score, total/deep/REM/light hours, the night’s HRV and average heart rate. With `date`, one night in detail instead (stage seconds, interruptions, sleep charge, hypnogram, heart-rate samples). Same JSON as GET /api/v1/users/{user_id}/sleep and /sleep/{date}.',
    scope: 'health:read',
    readOnly: true,
    input: {
      days: daysInput(7, RECORD_DAYS_MAX),
      date: dateInput('One night in detail, by the date it ended (YYYY-MM-DD); `days` is then ignored.'),
    },
    async run(call, { days = 7, date }) {
      const sleep = await call.make(SleepService)
      if (date) {
        const data = await call.serialize(SleepNightTransformer.transform(await sleep.findByDate(call.userId, date)))
        const detail = facts([
          ['score', withUnit(data.sleep_score, '')],
          ['asleep', withUnit(data.total_sleep_hours, ' h')],
          ['HRV', withUnit(data.hrv_avg, ' ms')],
        ])
        return {
          data,
          summary: `Sleep of user ${call.userId} on ${date}${detail ? `: ${detail}` : ''}. Stage and interruption durations in seconds, hypnogram and heart-rate samples (bpm) by time of night.`,
        }
      }
      return listAnswer(call, SLEEP, days, SleepRecordTransformer.transform(await sleep.listRecent(call.userId, days)))
    },
  }),

  defineTool({
    name: 'get_recovery',
    title: 'Recovery (Nightly Recharge)',
    description:
      'Polar Nightly Recharge of the last `days` nights (default 30), newest first: overnight HRV (RMSSD), heart rate, breathing rate and ANS charge with its status. The core recovery signal; compare HRV with get_baselines. Same JSON as GET /api/v1/users/{user_id}/recharge.',
    scope: 'health:read',
    readOnly: true,
    input: { days: daysInput(30, RECORD_DAYS_MAX) },
    async run(call, { days = 30 }) {
      const nights = await (await call.make(RechargeService)).listRecent(call.userId, days)
      return listAnswer(call, RECHARGE, days, NightlyRechargeTransformer.transform(nights))
    },
  }),

  defineTool({
    name: 'get_activity',
    title: 'Daily activity',
    description:
      'Daily activity of the last `days` days (default 30), newest first: steps, calories, distance, active minutes, activity score. With `date`, one day in detail instead (durations, activity zones, minute step samples). Same JSON as GET /api/v1/users/{user_id}/activity and /activity/{date}.',
    scope: 'health:read',
    readOnly: true,
    input: {
      days: daysInput(30, RECORD_DAYS_MAX),
      date: dateInput('One day in detail (YYYY-MM-DD); `days` is then ignored.'),
    },
    async run(call, { days = 30, date }) {
      const activity = await call.make(ActivityService)
      if (date) {
        const data = await call.serialize(ActivityDayTransformer.transform(await activity.findByDate(call.userId, date)))
        return {
          data,
          summary: `Activity of user ${call.userId} on ${date} in raw units: durations in seconds, distance in meters, calories in kcal, step samples per interval, activity zones.`,
        }
      }
      const days_ = await activity.listRecent(call.userId, days)
      return listAnswer(call, ACTIVITY, days, ActivityRecordTransformer.transform(days_))
    },
  }),

  defineTool({
    name: 'get_exercises',
    title: 'Exercise sessions',
    description:
      'Training sessions started in the last `days` days (default 30), newest first: sport, duration, distance, calories, heart rate, training load. With `exercise_id` (the `id` of a list entry), one session in detail instead (heart-rate zones, Training Load Pro, running index, sport details). Same JSON as GET /api/v1/users/{user_id}/exercises and /exercises/{id}.',
    scope: 'health:read',
    readOnly: true,
    input: {
      days: daysInput(30, RECORD_DAYS_MAX),
      exercise_id: z
        .number()
        .int()
        .min(1)
        .max(Number.MAX_SAFE_INTEGER)
        .optional()
        .describe('HRVault id of one session (the `id` field of a list entry) for its details; `days` is then ignored.'),
    },
    async run(call, { days = 30, exercise_id: exerciseId }) {
      const exercises = await call.make(ExerciseService)
      if (exerciseId !== undefined) {
        const data = await call.serialize(ExerciseDetailTransformer.transform(await exercises.findById(call.userId, exerciseId)))
        return {
          data,
          summary: `Exercise ${exerciseId} of user ${call.userId}${data.sport ? ` (${data.sport})` : ''} started ${data.start_time}: durations in seconds, distance in meters, heart rate and zone limits in bpm, time in zones in seconds.`,
        }
      }
      return listAnswer(call, EXERCISES, days, ExerciseRecordTransformer.transform(await exercises.listRecent(call.userId, days)))
    },
  }),

  defineTool({
    name: 'get_biosensing',
    title: 'Biosensing measurements',
    description:
      'Biosensing records of the last `days` days, newest first, for one `metric`: spo2 (blood oxygen tests), ecg (ECG tests with samples), body_temperature, skin_temperature (nightly, with deviation from baseline), heart_rate (daily continuous-HR summary), alertness and bedtime (SleepWise; `days` 1–30, default 7). Others: `days` 1–365, default 30. Same JSON as the matching GET /api/v1/users/{user_id}/… route.',
    scope: 'health:read',
    readOnly: true,
    input: {
      metric: z.enum(BIOSENSING_METRICS).describe('Which measurement to read.'),
      days: z
        .number()
        .int()
        .min(1)
        .max(RECORD_DAYS_MAX)
        .optional()
        .describe('Calendar days back from today, today included: 1–30 (default 7) for alertness and bedtime, 1–365 (default 30) for the others.'),
    },
    async run(call, { metric, days }) {
      const spec = BIOSENSING[metric as BiosensingMetric]
      const window = days ?? spec.defaultDays
      if (window > spec.maxDays) {
        throw new ToolError(`days must be between 1 and ${spec.maxDays} for metric "${metric}" (got ${window}).`, 'E_VALIDATION_ERROR')
      }
      return listAnswer(call, spec.description, window, await spec.load(call, window))
    },
  }),

  defineTool({
    name: 'get_baselines',
    title: 'Personal baselines',
    description:
      'The user’s personal baselines (median with IQR normal bounds, 7/30/90-day rolling values, status ready/partial/insufficient) for hrv_rmssd, sleep_score, resting_hr, training_load and training_load_ratio. With `metric_name`, one baseline. Same JSON as GET /api/v1/users/{user_id}/baselines and /baselines/{metric_name}.',
    scope: 'health:read',
    readOnly: true,
    input: { metric_name: z.enum(METRIC_NAMES).optional().describe('One metric only.') },
    async run(call, { metric_name: metricName }) {
      const baselines = await call.make(BaselineService)
      if (metricName) {
        const data = await call.serialize(BaselineTransformer.transform(await baselines.show(call.userId, metricName)))
        return {
          data,
          summary: `Baseline of ${metricName} for user ${call.userId}: ${baselineFact(metricName, data.baseline_value)} (${data.status}, ${data.sample_count} days, normal ${data.lower_bound}–${data.upper_bound}), data ${data.data_start_date} to ${data.data_end_date}.`,
        }
      }
      const data = (await call.serialize(BaselineTransformer.transform(await baselines.list(call.userId)))) as any[]
      const parts = data.map((b) => `${b.metric_name} ${baselineFact(b.metric_name, b.baseline_value)} (${b.status})`)
      return {
        data,
        summary:
          data.length === 0
            ? `No baselines are calculated for user ${call.userId} yet (they need 7 days of data; a sync recalculates them).`
            : `${data.length} baselines of user ${call.userId}: ${parts.join('; ')}. HRV in ms, resting heart rate in bpm.`,
      }
    },
  }),

  defineTool({
    name: 'get_patterns',
    title: 'Detected patterns',
    description:
      'Patterns detected in the user’s history: sleep_hrv_correlation, overtraining_risk (0–100 with risk factors and recommendations), hrv_trend and sleep_trend, each with significance and confidence. With `pattern_name`, one pattern. Same JSON as GET /api/v1/users/{user_id}/patterns and /patterns/{pattern_name}.',
    scope: 'health:read',
    readOnly: true,
    input: { pattern_name: z.enum(PATTERN_NAMES).optional().describe('One pattern only.') },
    async run(call, { pattern_name: patternName }) {
      const patterns = await call.make(PatternService)
      if (patternName) {
        const data = await call.serialize(PatternTransformer.transform(await patterns.show(call.userId, patternName)))
        return {
          data,
          summary: `Pattern ${patternName} of user ${call.userId}: score ${num(data.score)}, significance ${data.significance}, confidence ${num(data.confidence)}, from ${count(data.sample_count, 'day')} (analyzed ${data.analyzed_at}).`,
        }
      }
      const data = (await call.serialize(PatternTransformer.transform(await patterns.list(call.userId)))) as any[]
      return {
        data,
        summary:
          data.length === 0
            ? `No patterns are detected for user ${call.userId} yet.`
            : `${count(data.length, 'pattern')} of user ${call.userId}: ${data.map((p) => `${p.pattern_name} ${p.significance} (score ${num(p.score)})`).join('; ')}. Scores: Spearman ρ for the correlation, 0–100 for overtraining_risk, % change of the 7-day against the 30-day mean for the trends.`,
      }
    },
  }),

  defineTool({
    name: 'get_health_insights',
    title: 'Health insights (start here)',
    description:
      'Start here. One summary of the user’s current state: latest HRV, sleep score, resting heart rate and load ratio against personal baselines, trends, anomalies, detected patterns, prioritised observations and suggestions, how fresh the data is and which analyses are unlocked. Same JSON as GET /api/v1/users/{user_id}/insights.',
    scope: 'health:read',
    readOnly: true,
    input: {},
    async run(call) {
      const data = await call.serialize(InsightsTransformer.transform(await (await call.make(InsightsService)).insights(call.userId)))
      const freshness = data.data_freshness ? String(data.data_freshness).slice(0, 10) : null
      const lines = [
        `Insights of user ${call.userId} (status ${data.status}, ${count(data.data_age_days, 'day')} of data): ${count(data.observations.length, 'observation')}, ${count(data.suggestions.length, 'suggestion')}, ${count(data.anomalies.length, 'anomaly', 'anomalies')}, ${count(data.patterns.length, 'pattern')}.`,
      ]
      const top = data.observations[0]
      if (top) lines.push(`First observation (${top.priority}): ${sentence(top.fact)}`)
      lines.push('HRV in ms, resting heart rate in bpm, sleep score 1–100.')
      const stale = stalenessNote(call, freshness, 'data')
      if (stale) lines.push(stale)
      return { data, summary: lines.join(' ') }
    },
  }),

  defineTool({
    name: 'get_today',
    title: 'Today at a glance',
    description:
      'A compact view of today: the night that ended this morning (sleep and Nightly Recharge; null until synced), today’s activity so far, current HRV, sleep score, resting heart rate and load ratio against each metric’s baseline, active anomalies, the most important observation and suggestion, and how fresh the data is (last sync, newest date per data type). Same JSON as GET /api/v1/users/{user_id}/today.',
    scope: 'health:read',
    readOnly: true,
    input: {},
    async run(call) {
      const data = await call.serialize(TodayTransformer.transform(await (await call.make(TodayService)).today(call.userId)))
      const night = data.sleep
        ? facts([
            ['sleep score', withUnit(data.sleep.sleep_score, '')],
            ['asleep', withUnit(data.sleep.total_sleep_hours, ' h')],
            ['HRV', withUnit(data.recharge?.hrv_avg ?? data.sleep.hrv_avg, ' ms')],
          ])
        : null
      const lines = [
        `Today (${data.date}) for user ${call.userId}, status ${data.status}: ${night ? `last night ${night}` : 'last night is not synced yet'}; ${data.activity ? `${withUnit(data.activity.steps, ' steps') ?? 'no steps'} so far` : 'no activity yet today'}; ${count(data.anomalies.length, 'active anomaly', 'active anomalies')}.`,
      ]
      if (data.top_observation) lines.push(`Top observation (${data.top_observation.priority}): ${sentence(data.top_observation.fact)}`)
      if (data.top_suggestion) lines.push(`Suggestion: ${sentence(data.top_suggestion.description)}`)
      const stale = stalenessNote(call, data.freshness.newest_data_date, 'data')
      if (stale) lines.push(stale)
      return { data, summary: lines.join(' ') }
    },
  }),

  defineTool({
    name: 'trigger_sync',
    title: 'Sync from Polar now',
    description:
      'Queues a sync of the user’s data from Polar with the Polar connection stored in HRVault (as the admin UI’s “Sync now”), and answers at once with the job id; follow it with get_sync_status. Refused while a sync of the user runs, within the per-user cooldown, or when Polar’s request budget is reserved for background syncs. Needs the `sync` scope.',
    scope: 'sync',
    readOnly: false,
    input: {
      days: z
        .number()
        .int()
        .min(1)
        .max(MAX_TRIGGER_DAYS)
        .optional()
        .describe('Calendar days to fetch, default SYNC_DAYS (28, about what Polar keeps); a personal credential may not exceed it.'),
    },
    async run(call, { days }) {
      const max = maxTriggerDays({ userExternalId: call.principal.userExternalId })
      if (days !== undefined && days > max) {
        throw new ToolError(`days must not be greater than ${max} for a credential bound to one user.`, 'E_VALIDATION_ERROR')
      }
      const outcome = await (await call.make(AdminSyncService)).start(call.userId, days, 'api')
      switch (outcome.state) {
        case 'unknown_user':
          throw new ToolError(`User "${call.userId}" was not found.`, 'E_UNKNOWN_USER')
        case 'not_connected':
          throw new ToolError(
            `No Polar connection is stored for user ${call.userId}: connect their Polar account in the HRVault admin UI first.`,
            'E_PROVIDER_NOT_CONNECTED'
          )
        case 'refused':
          throw new ToolError(`${outcome.message} Retry in ${outcome.retryAfter} seconds.`, outcome.status === 429 ? 'E_SYNC_COOLDOWN' : 'E_PROVIDER_BUDGET_RESERVED')
        case 'running': {
          const data = { state: 'running', run: await call.serialize(SyncRunTransformer.transform(outcome.run)) }
          return { data, summary: `A sync of user ${call.userId} is already running (run ${outcome.run.id}, started ${data.run.started_at}); get_sync_status shows its progress.` }
        }
        case 'queued':
          return {
            data: { state: 'queued', job_id: outcome.jobId },
            summary: `A sync of user ${call.userId} is queued (job ${outcome.jobId}); call get_sync_status with this job_id to follow it.`,
          }
      }
    },
  }),

  defineTool({
    name: 'get_sync_status',
    title: 'Sync status',
    description:
      'Whether the user’s Polar account is connected, when they were last synced, their latest sync run (status, trigger, per-type record counts, errors, progress while running) and, with `job_id` from trigger_sync, that sync’s state.',
    scope: 'health:read',
    readOnly: true,
    input: {
      job_id: z.string().min(1).max(200).optional().describe('The job_id trigger_sync answered, to follow that sync.'),
    },
    async run(call, { job_id: jobId }) {
      const user = await (await call.make(UserService)).findOrFail(call.userId)
      const connected = (await (await call.make(ProviderTokenService)).tokenFor(user)) !== null
      const latest = await SyncRun.query().where('userId', user.id).orderBy('id', 'desc').first()
      let job: Record<string, unknown> | null = null
      if (jobId !== undefined) {
        const poll = await (await call.make(AdminSyncService)).poll(call.userId, jobId, undefined)
        job =
          poll.state === 'run'
            ? { job_id: jobId, state: 'run', run: await call.serialize(SyncRunTransformer.transform(poll.run)) }
            : { job_id: jobId, state: 'queued' }
      }
      const data = {
        user_id: user.externalId,
        connected,
        last_synced_at: user.lastSyncedAt?.toISO() ?? null,
        latest_run: latest ? await call.serialize(SyncRunTransformer.transform(latest)) : null,
        job,
      }
      const lines = [
        `User ${call.userId}: Polar ${connected ? 'connected' : 'not connected'}, last synced ${data.last_synced_at ?? 'never'}.`,
      ]
      if (data.latest_run) lines.push(`Latest run ${data.latest_run.id}: ${data.latest_run.status} (${data.latest_run.trigger}, started ${data.latest_run.started_at}).`)
      if (job) lines.push(job.state === 'queued' ? `Job ${jobId} is still queued.` : `Job ${jobId}: run ${(job.run as any).id} ${(job.run as any).status}.`)
      return { data, summary: lines.join(' ') }
    },
  }),

  defineTool({
    name: 'get_anomalies',
    title: 'Anomalies',
    description:
      'Scans the latest value (within 7 days) of every metric against the user’s baselines and lists those outside the normal IQR bounds, with severity (warning/critical), direction and deviation in percent. Same JSON as GET /api/v1/users/{user_id}/anomalies.',
    scope: 'health:read',
    readOnly: true,
    input: {},
    async run(call) {
      const anomalies = await (await call.make(AnomalyService)).scan(call.userId)
      const data = await call.serialize(AnomalyScanTransformer.transform({ userId: call.userId, anomalies }))
      const parts = (data.anomalies as any[]).map(
        (a) => `${a.metric_name} ${baselineFact(a.metric_name, a.current_value)} on ${a.date} is ${a.direction} normal (${a.severity}, ${a.deviation_percent}% from baseline)`
      )
      return {
        data,
        summary:
          data.anomaly_count === 0
            ? `No anomalies for user ${call.userId}.`
            : `${count(data.anomaly_count, 'anomaly', 'anomalies')} for user ${call.userId}: ${parts.join('; ')}.`,
      }
    },
  }),

  defineTool({
    name: 'check_metric',
    title: 'Check a value against the baseline',
    description:
      'Checks one value of a metric against the user’s stored baseline: whether it is an anomaly (outside the IQR bounds), its severity, the baseline and the bounds. Same JSON as GET /api/v1/users/{user_id}/baselines/check/{metric_name}/{value}.',
    scope: 'health:read',
    readOnly: true,
    input: {
      metric_name: z.enum(METRIC_NAMES).describe('hrv_rmssd (ms), sleep_score, resting_hr (bpm), training_load or training_load_ratio.'),
      value: z.number().describe('The value to check, in the metric’s unit.'),
    },
    async run(call, { metric_name: metricName, value }) {
      const check = await (await call.make(BaselineService)).check(call.userId, metricName, value)
      const data = await call.serialize(BaselineCheckTransformer.transform(check))
      const verdict = data.is_anomaly ? `an anomaly (${data.severity})` : 'within the normal range'
      return {
        data,
        summary: `${metricName} ${baselineFact(metricName, value)} is ${verdict} for user ${call.userId}: baseline ${baselineFact(metricName, data.baseline)}, normal ${data.lower_bound}–${data.upper_bound} (baseline ${data.status}).`,
      }
    },
  }),

  defineTool({
    name: 'get_heart_rate',
    title: 'Daily heart rate',
    description:
      'Daily continuous heart-rate summaries of the last `days` days (default 30), newest first: minimum, average, maximum and sample count. With `date`, that day’s samples instead. Same JSON as GET /api/v1/users/{user_id}/heart-rate and /heart-rate/{date}/samples.',
    scope: 'health:read',
    readOnly: true,
    input: {
      days: daysInput(30, RECORD_DAYS_MAX),
      date: dateInput('One day’s samples (YYYY-MM-DD); `days` is then ignored.'),
    },
    async run(call, { days = 30, date }) {
      if (date) {
        const data = await call.serialize(
          HeartRateSamplesTransformer.transform(await (await call.make(HeartRateSamplesService)).forDate(call.userId, date))
        )
        return { data, summary: `${data.sample_count} heart-rate samples of user ${call.userId} on ${date} (bpm, local time of day).` }
      }
      const series = await (await call.make(DailySeriesService)).heartRate(call.userId, days)
      return listAnswer(call, HEART_RATE, days, HeartRateSummaryTransformer.transform(series))
    },
  }),

  defineTool({
    name: 'get_cardio_load',
    title: 'Cardio load',
    description:
      'Polar cardio load of the last `days` days (default 30), newest first: the day’s load, strain (acute), tolerance (chronic), their ratio and status. A ratio above 1 means the recent load exceeds what the user is used to. Same JSON as GET /api/v1/users/{user_id}/cardio-load.',
    scope: 'health:read',
    readOnly: true,
    input: { days: daysInput(30, RECORD_DAYS_MAX) },
    async run(call, { days = 30 }) {
      const series = await (await call.make(DailySeriesService)).cardioLoad(call.userId, days)
      return listAnswer(call, CARDIO_LOAD, days, CardioLoadTransformer.transform(series))
    },
  }),

  defineTool({
    name: 'get_analytics_status',
    title: 'Analytics status',
    description:
      'Days of data per source (sleep, recharge, activity, cardio load) and which analyses they unlock (baselines, trends, patterns…), with the days still missing for each. Same JSON as GET /api/v1/users/{user_id}/analytics/status.',
    scope: 'health:read',
    readOnly: true,
    input: {},
    async run(call) {
      const data = await call.serialize(
        AnalyticsStatusTransformer.transform(await (await call.make(AnalyticsStatusService)).status(call.userId))
      )
      const unlocked = Object.entries(data.features_available as Record<string, boolean>)
        .filter(([, on]) => on)
        .map(([feature]) => feature)
      const counts = Object.entries(data.data_days as Record<string, number>).map(([source, n]) => `${source} ${n}`)
      return {
        data,
        summary: `Analytics of user ${call.userId}: days of data ${counts.join(', ')}; unlocked: ${unlocked.length > 0 ? unlocked.join(', ') : 'nothing yet'}.`,
      }
    },
  }),
]
