/**
 * Labels of Polar's integer enums (reference §10). DESIGN §4: `ans_charge_status` is served as a
 * label; the other integer codes are stored as Polar sends them and may be labelled for display.
 */

/** ANS charge status 1–5 → API label (DESIGN §4). */
export const ANS_CHARGE_STATUS_LABELS = {
  1: 'much_below_usual',
  2: 'below_usual',
  3: 'usual',
  4: 'above_usual',
  5: 'much_above_usual',
} as const

/** Every ANS charge status label, lowest first (for OpenAPI enums and validators). */
export const ANS_CHARGE_STATUS_VALUES = Object.values(ANS_CHARGE_STATUS_LABELS)

export type AnsChargeStatusLabel = (typeof ANS_CHARGE_STATUS_LABELS)[keyof typeof ANS_CHARGE_STATUS_LABELS]

/** Label of an ANS charge status code, or null for a missing or out-of-range code. */
export function ansChargeStatusLabel(status: number | null | undefined): AnsChargeStatusLabel | null {
  if (status === null || status === undefined) return null
  return ANS_CHARGE_STATUS_LABELS[status as keyof typeof ANS_CHARGE_STATUS_LABELS] ?? null
}

/** Nightly Recharge status 1–6 → label. */
export const NIGHTLY_RECHARGE_STATUS_LABELS = {
  1: 'very_poor',
  2: 'poor',
  3: 'compromised',
  4: 'ok',
  5: 'good',
  6: 'very_good',
} as const

/** Sleep charge 1–5 (vs. the 28-day level) → label; same scale as the ANS charge status. */
export const SLEEP_CHARGE_LABELS = ANS_CHARGE_STATUS_LABELS

/** Continuity class 1–5 → label. */
export const CONTINUITY_CLASS_LABELS = {
  1: 'fragmented',
  2: 'fairly_fragmented',
  3: 'fairly_continuous',
  4: 'continuous',
  5: 'very_continuous',
} as const

/** Hypnogram stage codes → label. */
export const HYPNOGRAM_STAGE_LABELS = {
  0: 'wake',
  1: 'rem',
  2: 'lighter_non_rem',
  3: 'light_non_rem',
  4: 'deep_non_rem',
  5: 'unknown',
} as const

/** Label of any of the integer maps above, or null. */
export function labelOf<T extends Record<number, string>>(labels: T, code: number | null | undefined): T[keyof T] | null {
  if (code === null || code === undefined) return null
  return (labels[code as keyof T] as T[keyof T] | undefined) ?? null
}
