/**
 * Small coercions shared by the wire → row mappers. Absent keys, null, non-finite numbers and
 * wrong types all become null ("not measured"); a real 0 stays 0 unless a helper says otherwise.
 */

/** A finite number, else null. */
export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

/** A finite number rounded to an integer, else null. */
export function int(value: unknown): number | null {
  const n = num(value)
  return n === null ? null : Math.round(n)
}

/** A number where Polar's `-1` "not available" sentinel (any negative value) becomes null. */
export function nonNegative(value: unknown): number | null {
  const n = num(value)
  return n === null || n < 0 ? null : n
}

/** A positive number; 0 and negatives are Polar placeholders for "no value" and become null. */
export function positive(value: unknown): number | null {
  const n = num(value)
  return n === null || n <= 0 ? null : n
}

/** An integer within `min`…`max` (an enum code), else null. */
export function code(value: unknown, min: number, max: number): number | null {
  const n = int(value)
  return n === null || n < min || n > max ? null : n
}

/** A non-empty string (trimmed), else null. */
export function str(value: unknown, maxLength = 255): string | null {
  if (typeof value !== 'string') return null
  const trimmed = value.trim()
  return trimmed === '' ? null : trimmed.slice(0, maxLength)
}

/** A boolean, else null. */
export function bool(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null
}

/** JSON text of a value for a text column, or null when there is nothing to store. */
export function json(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (Array.isArray(value) && value.length === 0) return null
  return JSON.stringify(value)
}

/** Plain object check for wire values. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Min, rounded mean and max of the positive values (heart rates), nulls when there are none. */
export function positiveSummary(values: Array<number | null | undefined>): {
  min: number | null
  avg: number | null
  max: number | null
  count: number
} {
  let min = Infinity
  let max = -Infinity
  let sum = 0
  let count = 0
  for (const v of values) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) continue
    if (v < min) min = v
    if (v > max) max = v
    sum += v
    count++
  }
  if (count === 0) return { min: null, avg: null, max: null, count: 0 }
  return { min: Math.round(min), avg: Math.round(sum / count), max: Math.round(max), count }
}

/**
 * Drops rows without a natural key and keeps the last row per key, so one batched upsert never
 * touches the same row twice (PostgreSQL refuses that in `ON CONFLICT DO UPDATE`).
 */
export function dedupeBy<T>(rows: Array<T | null>, keyOf: (row: T) => string): T[] {
  const byKey = new Map<string, T>()
  for (const row of rows) if (row !== null) byKey.set(keyOf(row), row)
  return [...byKey.values()]
}
