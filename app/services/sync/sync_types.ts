import type { AccessLinkClient, DateRange } from '#services/polar/accesslink_client'
import { mapCardioLoadList } from '#services/polar/mappers/cardio_load_mapper'
import { mapDailyActivityList } from '#services/polar/mappers/daily_activity_mapper'
import { mapExercise } from '#services/polar/mappers/exercise_mapper'
import { mapHeartRateDays } from '#services/polar/mappers/heart_rate_mapper'
import { mapNightlyRechargeList } from '#services/polar/mappers/nightly_recharge_mapper'
import { mapSleepList } from '#services/polar/mappers/sleep_mapper'
import { mapSleepwiseAlertnessList, mapSleepwiseBedtimeList } from '#services/polar/mappers/sleepwise_mapper'
import {
  mapBodyTemperatureList,
  mapEcgList,
  mapSkinTemperatureList,
  mapSpo2List,
} from '#services/polar/mappers/biosensing_mapper'

/** The 11 result keys of the spec's sync result, plus continuous heart rate (DESIGN §4). */
export const SYNC_TYPE_KEYS = [
  'sleep',
  'recharge',
  'activity',
  'exercises',
  'cardio_load',
  'sleepwise_alertness',
  'sleepwise_bedtime',
  'spo2',
  'ecg',
  'body_temperature',
  'skin_temperature',
  'heart_rate',
] as const

export type SyncTypeKey = (typeof SYNC_TYPE_KEYS)[number]

/** Per-type record counts as the sync result reports them. */
export type SyncCounts = Record<SyncTypeKey, number>

/** What a type's fetch step may read besides the client and the window. */
export interface FetchContext {
  client: AccessLinkClient
  range: DateRange
  /** The user's UTC offset in minutes (latest stored night), for types Polar sends in naive UTC. */
  offsetMinutes: () => Promise<number | null>
  /** Polar exercise ids already stored for the user (details are fetched once per new exercise). */
  knownExerciseIds: () => Promise<Set<string>>
}

/**
 * One data type of the sync engine: where it is stored, its natural key (the unique index next to
 * `user_id`), and how it is fetched and mapped. `fetch` returns rows (camelCase columns without
 * `userId`); `count` is what the sync result reports when it differs from the rows written.
 */
export interface SyncTypeDefinition {
  key: SyncTypeKey
  table: string
  naturalKey: string[]
  fetch(ctx: FetchContext): Promise<{ rows: Record<string, unknown>[]; count?: number }>
}

/** Exercises: list once, details only for ids not stored yet; stored exercises are left untouched. */
async function fetchExercises(ctx: FetchContext) {
  const summaries = await ctx.client.listExercises()
  const known = await ctx.knownExerciseIds()
  const rows: Record<string, unknown>[] = []
  let inWindow = 0
  const seen = new Set<string>()
  for (const summary of summaries) {
    const mapped = mapExercise(summary)
    if (!mapped || seen.has(mapped.polarExerciseId)) continue
    seen.add(mapped.polarExerciseId)
    if (mapped.startDate < ctx.range.from || mapped.startDate > ctx.range.to) continue
    inWindow++
    if (known.has(mapped.polarExerciseId)) continue
    const detail = await ctx.client.getExercise(mapped.polarExerciseId, { zones: true })
    rows.push({ ...(detail ? (mapExercise(detail) ?? mapped) : mapped) })
  }
  return { rows, count: inWindow }
}

/** Mapper rows (typed interfaces) as plain column records. */
const rowsOf = <T extends object>(rows: T[]) => rows as unknown as Record<string, unknown>[]

/** Keeps rows whose date column lies in the window. */
const inRange = (range: DateRange, column: string) => (row: Record<string, unknown>) => {
  const value = row[column]
  return typeof value === 'string' && value.slice(0, 10) >= range.from && value.slice(0, 10) <= range.to
}

/**
 * Every type the engine syncs, in the order it runs them: sleep first, so later types can read the
 * user's UTC offset from the stored nights.
 */
export const SYNC_TYPES: SyncTypeDefinition[] = [
  {
    key: 'sleep',
    table: 'sleep_records',
    naturalKey: ['date'],
    fetch: async ({ client, range }) => ({ rows: rowsOf(mapSleepList(await client.listSleep(range))) }),
  },
  {
    key: 'recharge',
    table: 'nightly_recharges',
    naturalKey: ['date'],
    fetch: async ({ client, range }) => ({ rows: rowsOf(mapNightlyRechargeList(await client.listNightlyRecharge(range))) }),
  },
  {
    key: 'activity',
    table: 'daily_activities',
    naturalKey: ['date'],
    fetch: async ({ client, range }) => ({
      rows: rowsOf(mapDailyActivityList(await client.listDailyActivities(range, { samples: true }))).filter(
        inRange(range, 'date')
      ),
    }),
  },
  {
    key: 'exercises',
    table: 'exercises',
    naturalKey: ['polar_exercise_id'],
    fetch: fetchExercises,
  },
  {
    key: 'cardio_load',
    table: 'cardio_loads',
    naturalKey: ['date'],
    fetch: async ({ client, range }) => ({
      rows: rowsOf(mapCardioLoadList(await client.listCardioLoad(range))).filter(inRange(range, 'date')),
    }),
  },
  {
    key: 'sleepwise_alertness',
    table: 'sleepwise_alertness',
    naturalKey: ['period_start_time'],
    fetch: async ({ client, range }) => ({
      rows: rowsOf(mapSleepwiseAlertnessList(await client.listSleepwiseAlertness(range))),
    }),
  },
  {
    key: 'sleepwise_bedtime',
    table: 'sleepwise_bedtimes',
    naturalKey: ['period_start_time'],
    fetch: async ({ client, range }) => ({
      rows: rowsOf(mapSleepwiseBedtimeList(await client.listSleepwiseBedtime(range))),
    }),
  },
  {
    key: 'spo2',
    table: 'spo2_tests',
    naturalKey: ['test_timestamp'],
    fetch: async ({ client, range }) => ({ rows: rowsOf(mapSpo2List(await client.listSpo2(range))) }),
  },
  {
    key: 'ecg',
    table: 'ecg_tests',
    naturalKey: ['test_timestamp'],
    fetch: async ({ client, range }) => ({ rows: rowsOf(mapEcgList(await client.listEcg(range))) }),
  },
  {
    key: 'body_temperature',
    table: 'body_temperatures',
    naturalKey: ['start_time', 'measurement_type'],
    fetch: async (ctx) => ({
      rows: rowsOf(mapBodyTemperatureList(await ctx.client.listBodyTemperature(ctx.range), await ctx.offsetMinutes())),
    }),
  },
  {
    key: 'skin_temperature',
    table: 'skin_temperatures',
    naturalKey: ['sleep_date'],
    fetch: async ({ client, range }) => ({ rows: rowsOf(mapSkinTemperatureList(await client.listSkinTemperature(range))) }),
  },
  {
    key: 'heart_rate',
    table: 'heart_rate_days',
    naturalKey: ['date'],
    fetch: async ({ client, range }) => ({ rows: rowsOf(mapHeartRateDays(await client.listContinuousHeartRate(range))) }),
  },
]

/** Zero counts for every type. */
export function emptyCounts(): SyncCounts {
  return Object.fromEntries(SYNC_TYPE_KEYS.map((key) => [key, 0])) as SyncCounts
}
