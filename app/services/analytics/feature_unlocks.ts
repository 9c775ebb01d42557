import { round } from '#services/analytics/stats'

/**
 * Feature unlock ladders by days of data: the analytics status ladder and the insights ladder
 * (spec "Feature unlock by days of data", DESIGN §4). Pure.
 */

export const STATUS_FEATURES = [
  { key: 'basic_stats', days: 7, label: 'Basic statistics and daily tracking' },
  { key: 'trend_analysis', days: 14, label: 'Trend analysis and basic anomaly alerts' },
  { key: 'personalized_baselines', days: 21, label: 'Reliable correlations and personalised baselines' },
  { key: 'predictive_models', days: 30, label: 'Predictive models' },
  { key: 'advanced_ml', days: 60, label: 'Advanced models and behaviour patterns' },
  { key: 'long_term_patterns', days: 90, label: 'Long-term pattern recognition' },
] as const
export type StatusFeature = (typeof STATUS_FEATURES)[number]['key']

/** Insights feature keys in unlock order (ties keep the spec's listing order). */
export const INSIGHT_FEATURES = [
  { key: 'baselines_7d', days: 7 },
  { key: 'patterns', days: 21 },
  { key: 'anomaly_detection', days: 21 },
  { key: 'baselines_30d', days: 30 },
  { key: 'ml_predictions', days: 60 },
] as const
export type InsightFeature = (typeof INSIGHT_FEATURES)[number]['key']

export const INSIGHTS_PARTIAL_DAYS = 7
export const INSIGHTS_READY_DAYS = 21

export interface UnlockProgress {
  unlocked: boolean
  daysRequired: number
  daysRemaining: number
  progressPercent: number
}

/** Progress of one feature: percent = days / required · 100 (1 dp), capped at 100. */
export function unlockProgress(days: number, required: number): UnlockProgress {
  const unlocked = days >= required
  return {
    unlocked,
    daysRequired: required,
    daysRemaining: unlocked ? 0 : required - days,
    progressPercent: unlocked ? 100 : round((days / required) * 100, 1),
  }
}

function plural(n: number, word: string) {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/** Recommendations of the analytics status record, specific to the user's counts. */
export function statusRecommendations(dataDays: Record<string, number>, minDays: number): string[] {
  const out: string[] = []
  const next = STATUS_FEATURES.find((f) => minDays < f.days)
  if (minDays === 0 && Object.values(dataDays).every((d) => d === 0)) {
    out.push('No data yet: connect a Polar account and run a sync to start collecting history.')
  } else if (next) {
    out.push(
      `${next.label} unlock in ${plural(next.days - minDays, 'day')} (${minDays} of ${next.days} days of data).`
    )
  } else {
    out.push(`All analytics features are unlocked (${minDays} days of data in every source).`)
  }
  const labels: Record<string, string> = {
    sleep: 'sleep',
    recharge: 'nightly recharge',
    activity: 'activity',
    cardio_load: 'cardio load',
  }
  for (const [source, days] of Object.entries(dataDays)) {
    if (days === 0 && minDays > 0) {
      out.push(
        `No ${labels[source] ?? source} data has been stored; check the Polar data-sharing consents and that your device records it.`
      )
    }
  }
  const max = Math.max(...Object.values(dataDays))
  const lagging = Object.entries(dataDays).filter(([, d]) => d > 0 && d === minDays && max - d >= 7)
  for (const [source, days] of lagging) {
    out.push(
      `${labels[source] ?? source} has the fewest days (${days} vs ${max}); it sets the unlock pace, so wear the device overnight and during training.`
    )
  }
  return out
}

/** Insights status by data age (DESIGN §4): unavailable < 7, partial 7–20, ready ≥ 21. */
export function insightsStatus(age: number): 'unavailable' | 'partial' | 'ready' {
  if (age < INSIGHTS_PARTIAL_DAYS) return 'unavailable'
  if (age < INSIGHTS_READY_DAYS) return 'partial'
  return 'ready'
}

export interface FeatureAvailability {
  available: boolean
  message: string | null
  unlockAtDays?: number
}

const AVAILABLE_MESSAGES: Partial<Record<InsightFeature, string>> = {
  ml_predictions: 'Enough history for predictive models; predictions are not provided by this API version yet',
}

/** feature_availability of the insights record, keyed in the spec's order. */
export function featureAvailability(age: number): Record<InsightFeature, FeatureAvailability> {
  const order: InsightFeature[] = ['baselines_7d', 'baselines_30d', 'patterns', 'anomaly_detection', 'ml_predictions']
  const out = {} as Record<InsightFeature, FeatureAvailability>
  for (const key of order) {
    const days = INSIGHT_FEATURES.find((f) => f.key === key)!.days
    out[key] =
      age >= days
        ? { available: true, message: AVAILABLE_MESSAGES[key] ?? null }
        : { available: false, message: `Unlocks in ${plural(days - age, 'day')}`, unlockAtDays: days }
  }
  return out
}

/** unlock_progress of the insights record: the next locked feature, or null when all are open. */
export function nextUnlock(age: number) {
  const next = INSIGHT_FEATURES.find((f) => age < f.days)
  if (!next) return { nextUnlock: null, daysUntilNext: 0, percentToNext: 100 }
  return {
    nextUnlock: next.key as InsightFeature,
    daysUntilNext: next.days - age,
    percentToNext: round((age / next.days) * 100, 1),
  }
}
