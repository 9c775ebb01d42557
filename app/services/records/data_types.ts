import type { LucidModel } from '@adonisjs/lucid/types/model'
import ActivitySample from '#models/activity_sample'
import BodyTemperature from '#models/body_temperature'
import CardioLoad from '#models/cardio_load'
import DailyActivity from '#models/daily_activity'
import EcgTest from '#models/ecg_test'
import Exercise from '#models/exercise'
import ExerciseSample from '#models/exercise_sample'
import HeartRateDay from '#models/heart_rate_day'
import NightlyRecharge from '#models/nightly_recharge'
import PhysicalInfo from '#models/physical_info'
import SkinTemperature from '#models/skin_temperature'
import SleepRecord from '#models/sleep_record'
import SleepwiseAlertness from '#models/sleepwise_alertness'
import SleepwiseBedtime from '#models/sleepwise_bedtime'
import Spo2Test from '#models/spo2_test'
import type { AccessLinkClient, DateRange } from '#services/polar/accesslink_client'
import type {
  WireBodyTemperature,
  WireCardioLoad,
  WireContinuousHeartRateDay as WireHeartRateDay,
  WireDailyActivity,
  WireEcg,
  WireExercise,
  WireNightlyRecharge,
  WirePhysicalInfo,
  WireSkinTemperature,
  WireSleep,
  WireSleepwiseAlertness,
  WireSleepwiseBedtime,
  WireSpo2,
} from '#services/polar/wire_types'
import { mapActivitySamplesFromSummaries } from '#services/polar/mappers/activity_samples_mapper'
import { mapCardioLoadList } from '#services/polar/mappers/cardio_load_mapper'
import { mapDailyActivityList } from '#services/polar/mappers/daily_activity_mapper'
import { mapExercise, mapExerciseList } from '#services/polar/mappers/exercise_mapper'
import { mapExerciseSamplesList } from '#services/polar/mappers/exercise_samples_mapper'
import { mapHeartRateDays } from '#services/polar/mappers/heart_rate_mapper'
import { mapNightlyRechargeList } from '#services/polar/mappers/nightly_recharge_mapper'
import { mapPhysicalInfoList } from '#services/polar/mappers/physical_info_mapper'
import { mapSleepList } from '#services/polar/mappers/sleep_mapper'
import { mapSleepwiseAlertnessList, mapSleepwiseBedtimeList } from '#services/polar/mappers/sleepwise_mapper'
import {
  mapBodyTemperatureList,
  mapEcgList,
  mapSkinTemperatureList,
  mapSpo2List,
} from '#services/polar/mappers/biosensing_mapper'
import { columnOf, type AttributeOf } from '#services/records/columns'

/** What a type's fetch step may read besides the client and the window. */
export interface FetchContext {
  client: AccessLinkClient
  range: DateRange
  /** Polar exercise ids already stored for the user (details are fetched once per new exercise). */
  knownExerciseIds: () => Promise<Set<string>>
  /** Told before and after each detail call of a type that makes one per item (`done` of `total`). */
  onDetails?: (done: number, total: number) => void
}

/** The wire items of one pull, exactly as Polar sent them (one per record; the raw archive keeps each). */
export interface Pulled {
  items: unknown[]
  /** Set when the count the sync result reports differs from the items (exercises already stored are not fetched again). */
  count?: number
}

/** What a type's map step may read besides the wire items. */
export interface MapContext {
  /** The user's UTC offset in minutes (latest stored night), for types Polar sends in naive UTC. */
  offsetMinutes: () => Promise<number | null>
  /** The sync window: rows outside it are dropped. Absent when re-deriving from the archive (every item counts). */
  range?: DateRange
}

/** Mapper rows (model attributes without `userId`) of one fetch, and the count the sync result reports. */
export interface Fetched {
  rows: Record<string, unknown>[]
  count?: number
}

/**
 * One synced data type. `table`, `naturalKey` and `dateColumn` are read from the model (column
 * names), so the model is the one place a table or column is spelled.
 */
export interface DataType<Key extends string = string> {
  /** The key of the sync result, the export counts and the admin pages. */
  key: Key
  /** Human name (admin UI, simulator). */
  label: string
  /** The AccessLink resource the type is read from (its sub-paths, e.g. `/date`, belong to it too). */
  accessLinkPath: string
  model: LucidModel
  table: string
  /** Columns of the unique index next to `user_id`: a re-sync updates instead of duplicating. */
  naturalKey: string[]
  /** Column of the local calendar date that `days=N` windows and the export count by. */
  dateColumn: string
  /** Set when the type makes no call of its own and maps the items another type pulled. */
  from: string | null
  /** Reads the window's wire items from Polar (not called for a type with `from`). */
  pull(ctx: FetchContext): Promise<Pulled>
  /** Maps wire items to rows (camelCase attributes of `model`): the step `data:rederive` re-runs. */
  map(items: unknown[], ctx: MapContext): Promise<Record<string, unknown>[]>
}

/** A catalogue entry as written below: attributes, turned into columns by `define`. */
interface DataTypeSpec<Key extends string, Model extends LucidModel> {
  key: Key
  label: string
  accessLinkPath: string
  model: Model
  naturalKey: AttributeOf<Model>[]
  date: AttributeOf<Model>
  from?: string
  pull?: (ctx: FetchContext) => Promise<Pulled>
  map: (items: unknown[], ctx: MapContext) => Record<string, unknown>[] | Promise<Record<string, unknown>[]>
}

function define<const Key extends string, Model extends LucidModel>(spec: DataTypeSpec<Key, Model>): DataType<Key> {
  const { model } = spec
  return {
    key: spec.key,
    label: spec.label,
    accessLinkPath: spec.accessLinkPath,
    model,
    table: model.table,
    naturalKey: spec.naturalKey.map((attribute) => columnOf(model, attribute)),
    dateColumn: columnOf(model, spec.date),
    from: spec.from ?? null,
    pull:
      spec.pull ??
      (() => {
        throw new Error(`${spec.key} maps the items of ${spec.from} and pulls nothing itself`)
      }),
    map: async (items, ctx) => spec.map(items, ctx),
  }
}

/** What the one detail call per new exercise asks for; `exercise_samples` maps the same items. */
export const EXERCISE_DETAIL = { zones: true, samples: true, route: true } as const

/**
 * Exercises: list once, then one detail call with samples, zones and route (reference §5.1: query
 * flags, the sub-paths do not exist for hashed ids) for each id not stored yet (the items); stored
 * exercises are left untouched.
 */
async function pullExercises(ctx: FetchContext): Promise<Pulled> {
  const summaries = await ctx.client.listExercises()
  const known = await ctx.knownExerciseIds()
  const wanted: Array<{ id: string; summary: unknown }> = []
  let inWindow = 0
  const seen = new Set<string>()
  for (const summary of summaries) {
    const mapped = mapExercise(summary)
    if (!mapped || seen.has(mapped.polarExerciseId)) continue
    seen.add(mapped.polarExerciseId)
    if (mapped.startDate < ctx.range.from || mapped.startDate > ctx.range.to) continue
    inWindow++
    if (!known.has(mapped.polarExerciseId)) wanted.push({ id: mapped.polarExerciseId, summary })
  }
  const items: unknown[] = []
  for (const { id, summary } of wanted) {
    ctx.onDetails?.(items.length, wanted.length)
    const detail = await ctx.client.getExercise(id, EXERCISE_DETAIL)
    items.push(detail && mapExercise(detail) ? detail : summary)
  }
  if (wanted.length > 0) ctx.onDetails?.(items.length, wanted.length)
  return { items, count: inWindow }
}

/** Mapper rows (typed interfaces) as plain attribute records. */
const rowsOf = <T extends object>(rows: T[]) => rows as unknown as Record<string, unknown>[]

/** Keeps rows whose date attribute lies in the window (every row when there is none). */
const inRange = (range: DateRange | undefined, attribute: string) => (row: Record<string, unknown>) => {
  if (!range) return true
  const value = row[attribute]
  return typeof value === 'string' && value.slice(0, 10) >= range.from && value.slice(0, 10) <= range.to
}

/** The items of one list call. */
const list = async (items: Promise<unknown[]>): Promise<Pulled> => ({ items: await items })

/**
 * The catalogue of data types: every type HRVault syncs and stores, in the order the sync runs
 * them (sleep first, so later types can read the user's UTC offset from the stored nights).
 * Sync, export counts, analytics sources and the admin pages are derived from it.
 */
export const DATA_TYPES = [
  define({
    key: 'sleep',
    accessLinkPath: '/v3/users/sleep',
    label: 'Sleep',
    model: SleepRecord,
    naturalKey: ['date'],
    date: 'date',
    pull: ({ client, range }) => list(client.listSleep(range)),
    map: (items) => rowsOf(mapSleepList(items as WireSleep[])),
  }),
  define({
    key: 'recharge',
    accessLinkPath: '/v3/users/nightly-recharge',
    label: 'Nightly Recharge',
    model: NightlyRecharge,
    naturalKey: ['date'],
    date: 'date',
    pull: ({ client, range }) => list(client.listNightlyRecharge(range)),
    map: (items) => rowsOf(mapNightlyRechargeList(items as WireNightlyRecharge[])),
  }),
  define({
    key: 'activity',
    accessLinkPath: '/v3/users/activities',
    label: 'Daily activity',
    model: DailyActivity,
    naturalKey: ['date'],
    date: 'date',
    pull: ({ client, range }) => list(client.listDailyActivities(range, { samples: true })),
    map: (items, { range }) => rowsOf(mapDailyActivityList(items as WireDailyActivity[])).filter(inRange(range, 'date')),
  }),
  define({
    key: 'activity_samples',
    accessLinkPath: '/v3/users/activities/samples',
    label: 'Activity samples',
    model: ActivitySample,
    naturalKey: ['date'],
    date: 'date',
    // The summaries of the activity call carry the day samples (its sample flags): no call of its own.
    from: 'activity',
    map: (items, { range }) =>
      rowsOf(mapActivitySamplesFromSummaries(items as WireDailyActivity[])).filter(inRange(range, 'date')),
  }),
  define({
    key: 'exercises',
    accessLinkPath: '/v3/exercises',
    label: 'Exercises',
    model: Exercise,
    naturalKey: ['polarExerciseId'],
    date: 'startDate',
    pull: pullExercises,
    map: (items) => rowsOf(mapExerciseList(items as WireExercise[])),
  }),
  define({
    key: 'exercise_samples',
    accessLinkPath: '/v3/exercises/{id}',
    label: 'Exercise samples and routes',
    model: ExerciseSample,
    naturalKey: ['polarExerciseId'],
    date: 'startDate',
    from: 'exercises',
    map: (items) => rowsOf(mapExerciseSamplesList(items as WireExercise[])),
  }),
  define({
    key: 'cardio_load',
    accessLinkPath: '/v3/users/cardio-load',
    label: 'Cardio load',
    model: CardioLoad,
    naturalKey: ['date'],
    date: 'date',
    pull: ({ client, range }) => list(client.listCardioLoad(range)),
    map: (items, { range }) => rowsOf(mapCardioLoadList(items as WireCardioLoad[])).filter(inRange(range, 'date')),
  }),
  define({
    key: 'sleepwise_alertness',
    accessLinkPath: '/v3/users/sleepwise/alertness',
    label: 'SleepWise alertness',
    model: SleepwiseAlertness,
    naturalKey: ['periodStartTime'],
    date: 'periodDate',
    pull: ({ client, range }) => list(client.listSleepwiseAlertness(range)),
    map: (items) => rowsOf(mapSleepwiseAlertnessList(items as WireSleepwiseAlertness[])),
  }),
  define({
    key: 'sleepwise_bedtime',
    accessLinkPath: '/v3/users/sleepwise/circadian-bedtime',
    label: 'SleepWise bedtime',
    model: SleepwiseBedtime,
    naturalKey: ['periodStartTime'],
    date: 'periodDate',
    pull: ({ client, range }) => list(client.listSleepwiseBedtime(range)),
    map: (items) => rowsOf(mapSleepwiseBedtimeList(items as WireSleepwiseBedtime[])),
  }),
  define({
    key: 'spo2',
    accessLinkPath: '/v3/users/biosensing/spo2',
    label: 'SpO2',
    model: Spo2Test,
    naturalKey: ['testTimestamp'],
    date: 'testDate',
    pull: ({ client, range }) => list(client.listSpo2(range)),
    map: (items) => rowsOf(mapSpo2List(items as WireSpo2[])),
  }),
  define({
    key: 'ecg',
    accessLinkPath: '/v3/users/biosensing/ecg',
    label: 'ECG',
    model: EcgTest,
    naturalKey: ['testTimestamp'],
    date: 'testDate',
    pull: ({ client, range }) => list(client.listEcg(range)),
    map: (items) => rowsOf(mapEcgList(items as WireEcg[])),
  }),
  define({
    key: 'body_temperature',
    accessLinkPath: '/v3/users/biosensing/bodytemperature',
    label: 'Body temperature',
    model: BodyTemperature,
    naturalKey: ['startTime', 'measurementType'],
    date: 'startDate',
    pull: ({ client, range }) => list(client.listBodyTemperature(range)),
    map: async (items, ctx) => rowsOf(mapBodyTemperatureList(items as WireBodyTemperature[], await ctx.offsetMinutes())),
  }),
  define({
    key: 'skin_temperature',
    accessLinkPath: '/v3/users/biosensing/skintemperature',
    label: 'Skin temperature',
    model: SkinTemperature,
    naturalKey: ['sleepDate'],
    date: 'sleepDate',
    pull: ({ client, range }) => list(client.listSkinTemperature(range)),
    map: (items) => rowsOf(mapSkinTemperatureList(items as WireSkinTemperature[])),
  }),
  define({
    key: 'heart_rate',
    accessLinkPath: '/v3/users/continuous-heart-rate',
    label: 'Continuous heart rate',
    model: HeartRateDay,
    naturalKey: ['date'],
    date: 'date',
    pull: ({ client, range }) => list(client.listContinuousHeartRate(range)),
    map: (items) => rowsOf(mapHeartRateDays(items as WireHeartRateDay[])),
  }),
  define({
    key: 'physical_info',
    accessLinkPath: '/v3/users/physical-info',
    label: 'Physical information',
    model: PhysicalInfo,
    naturalKey: ['measuredAt'],
    date: 'date',
    // The current settings, one call, not windowed: a changed `modified` is a new version.
    pull: async ({ client }) => {
      const info = await client.getPhysicalInfo()
      return { items: info === null ? [] : [info] }
    },
    map: async (items, ctx) => rowsOf(mapPhysicalInfoList(items as WirePhysicalInfo[], await ctx.offsetMinutes())),
  }),
] as const

/** Key of a catalogued data type (the sync result key). */
export type DataTypeKey = (typeof DATA_TYPES)[number]['key']

/** Every key, in catalogue order. */
export const DATA_TYPE_KEYS: readonly DataTypeKey[] = DATA_TYPES.map((type) => type.key)

/** Human label per key. */
export const DATA_TYPE_LABELS = Object.fromEntries(DATA_TYPES.map((type) => [type.key, type.label])) as Record<
  DataTypeKey,
  string
>

const byKey = new Map<string, DataType<DataTypeKey>>(DATA_TYPES.map((type) => [type.key, type]))
const byTable = new Map<string, DataType<DataTypeKey>>(DATA_TYPES.map((type) => [type.table, type]))

/** The catalogue entry of a key. */
export function dataType(key: DataTypeKey): DataType<DataTypeKey> {
  return byKey.get(key)!
}

/** Types that map the items `key` pulls (besides `key` itself). */
export function typesFedBy(key: string): DataType<DataTypeKey>[] {
  return DATA_TYPES.filter((type) => type.from === key)
}

/** The catalogue entry stored in `table`; throws for a table that holds no data type. */
export function dataTypeOfTable(table: string): DataType<DataTypeKey> {
  const type = byTable.get(table)
  if (!type) throw new Error(`${table} is not the table of a catalogued data type`)
  return type
}
