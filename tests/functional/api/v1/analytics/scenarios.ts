/**
 * Deterministic day-by-day data for the analytics tests and the recompute benchmark.
 * `i` is days before today (0 = today). A field left undefined writes no row for its source.
 */
export interface DayValues {
  hrv?: number | null
  restingHr?: number | null
  sleep?: number | null
  load?: number | null
  ratio?: number | null
  activity?: boolean
}
export type Scenario = (i: number) => DayValues

/** Repeatable noise in [-1, 1] by day, different per `salt`. */
export function noise(i: number, salt = 0): number {
  return (((i * 7919 + salt * 104729) % 13) - 6) / 6
}

/** Every source present, steady values around typical means. */
export const steady: Scenario = (i) => ({
  hrv: 50 + 3 * noise(i),
  restingHr: 52 + noise(i, 1),
  sleep: 80 + 3 * noise(i, 2),
  load: 100 + 20 * noise(i, 3),
  ratio: 1 + 0.1 * noise(i, 4),
  activity: true,
})

/** Last week: HRV collapsing, resting HR up, sleep down, load ratio spiking. */
export const overreached: Scenario = (i) => ({
  hrv: i === 0 ? 30 : i < 7 ? 40 + noise(i) : 50 + 2 * noise(i),
  restingHr: i < 7 ? 57 : 50 + noise(i, 1),
  sleep: i < 7 ? 70 + noise(i, 2) : 80 + 2 * noise(i, 2),
  load: i < 7 ? 180 : 100 + 10 * noise(i, 3),
  ratio: i === 0 ? 1.6 : 1 + 0.05 * noise(i, 4),
})

/** Last week: HRV and sleep clearly up, resting HR down; sleep and HRV share their noise. */
export const thriving: Scenario = (i) => ({
  hrv: (i < 7 ? 60 : 50) + 4 * noise(i),
  restingHr: i < 7 ? 48 : 52 + noise(i, 1),
  sleep: (i < 7 ? 88 : 75) + 3 * noise(i),
  ratio: 1 + 0.05 * noise(i, 4),
})

/** Steady history; today's HRV and sleep slightly low and a low load ratio. */
export const slightlyLow: Scenario = (i) => ({
  hrv: i === 0 ? 45 : 50 + 2 * noise(i),
  restingHr: 52 + noise(i, 1),
  sleep: i === 0 ? 64 : 80 + 2 * noise(i, 2),
  ratio: i === 0 ? 0.7 : 1 + 0.05 * noise(i, 4),
})

/** A noisy HRV dip in the last week (not significant) and a moderately high load ratio. */
export const noisyDip: Scenario = (i) => ({
  hrv: i < 7 ? (i % 2 === 0 ? 32 : 62) : 50 + 6 * noise(i),
  restingHr: 52 + noise(i, 1),
  sleep: 80 + 2 * noise(i, 2),
  ratio: i === 0 ? 1.4 : 1 + 0.05 * noise(i, 4),
})
