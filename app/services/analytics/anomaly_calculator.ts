import { latestWithin, type MetricName, type MetricSeries } from '#services/analytics/metrics'
import { iqrSeverity, round } from '#services/analytics/stats'
import type { BaselineStatus } from '#services/analytics/baseline_calculator'

/** The baseline fields an anomaly check needs (a stored Baseline or a fresh computation). */
export interface BaselineLike {
  metricName: MetricName
  baselineValue: number
  q1: number | null
  q3: number | null
  lowerBound: number | null
  upperBound: number | null
  status: BaselineStatus
}

/** Result of checking one value against a baseline. */
export interface ValueCheck {
  isAnomaly: boolean
  severity: 'warning' | 'critical' | null
}

/** One value outside the normal bounds of its metric (bulk scan element). */
export interface AnomalyResult {
  metricName: MetricName
  currentValue: number
  currentDate: string
  baselineValue: number
  lowerBound: number
  upperBound: number
  severity: 'warning' | 'critical'
  direction: 'below' | 'above'
  deviationPercent: number | null
}

/** Days a value stays "current" for anomaly scans and current metrics (DESIGN §4). */
export const CURRENT_VALUE_DAYS = 7

/**
 * IQR check of a value (DESIGN §4, strict inequalities); never an anomaly against an
 * insufficient baseline.
 */
export function checkValue(value: number, baseline: BaselineLike): ValueCheck {
  if (baseline.status === 'insufficient' || baseline.q1 === null || baseline.q3 === null) {
    return { isAnomaly: false, severity: null }
  }
  const severity = iqrSeverity(value, baseline.q1, baseline.q3)
  return { isAnomaly: severity !== null, severity }
}

/** Signed (current − baseline)/baseline·100 to 1 dp; null for a zero baseline. */
export function deviationPercent(current: number, baseline: number): number | null {
  if (baseline === 0) return null
  return round(((current - baseline) / baseline) * 100, 1)
}

/**
 * Bulk scan: for each baseline, the latest value dated within the last 7 days, kept when it
 * lies outside the IQR fences. Critical first, then in metric order.
 */
export function scanAnomalies(
  baselines: readonly BaselineLike[],
  series: MetricSeries,
  today: string
): AnomalyResult[] {
  const found: AnomalyResult[] = []
  for (const b of baselines) {
    const latest = latestWithin(series[b.metricName], today, CURRENT_VALUE_DAYS)
    if (latest === null) continue
    const check = checkValue(latest.value, b)
    if (!check.isAnomaly || b.lowerBound === null || b.upperBound === null) continue
    found.push({
      metricName: b.metricName,
      currentValue: latest.value,
      currentDate: latest.date,
      baselineValue: b.baselineValue,
      lowerBound: b.lowerBound,
      upperBound: b.upperBound,
      severity: check.severity!,
      direction: latest.value > b.baselineValue ? 'above' : 'below',
      deviationPercent: deviationPercent(latest.value, b.baselineValue),
    })
  }
  return found.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'critical' ? -1 : 1))
}
