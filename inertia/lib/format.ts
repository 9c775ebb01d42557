export function dateTime(value: string | null | undefined): string {
  if (!value) return '—'
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return value
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

export function number(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—'
  return value.toLocaleString(undefined, { maximumFractionDigits: digits, minimumFractionDigits: 0 })
}

/** Whole keys whose words alone read badly. */
const KEY_LABELS: Record<string, string> = {
  baselines_7d: '7-day baselines',
  baselines_30d: '30-day baselines',
  hrv_rmssd: 'HRV (RMSSD)',
  resting_hr: 'Resting heart rate',
}
/** Words spelled as people (and Polar) write them. */
const WORDS: Record<string, string> = {
  ml: 'ML',
  spo2: 'SpO2',
  ecg: 'ECG',
  hrv: 'HRV',
  hr: 'HR',
  rmssd: 'RMSSD',
  ans: 'ANS',
  sleepwise: 'SleepWise',
  api: 'API',
  id: 'id',
}

/** A snake_case key as words: `train_normally` → "Train normally", `ml_predictions` → "ML predictions". */
export function label(key: string): string {
  if (KEY_LABELS[key]) return KEY_LABELS[key]
  const text = key
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((word) => WORDS[word.toLowerCase()] ?? word.toLowerCase())
    .join(' ')
  return text.replace(/^[a-z]/, (c) => c.toUpperCase())
}
