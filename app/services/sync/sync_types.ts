import { DATA_TYPES, DATA_TYPE_KEYS, type DataType, type DataTypeKey } from '#services/records/data_types'

/**
 * The types the engine syncs, in the order it runs them: every type of the data-type catalogue
 * (`#services/records/data_types`) in its order, sleep before the types whose mapping reads the
 * latest night's offset, except that the nights' recharges come just before the nights. A night's
 * rendered lines join its recharge (`sleep_lines.ts`): stored first, a new recharge has no night
 * to render yet, and the night's lines are rendered once, with it, instead of a second time.
 */
export const SYNC_TYPES: readonly SyncTypeDefinition[] = [
  ...DATA_TYPES.filter((type) => type.key === 'recharge'),
  ...DATA_TYPES.filter((type) => type.key !== 'recharge'),
]

/** The 11 result keys of the spec's sync result, plus continuous heart rate (DESIGN §4). */
export const SYNC_TYPE_KEYS: readonly SyncTypeKey[] = DATA_TYPE_KEYS

export type SyncTypeKey = DataTypeKey

/** One synced type: where it is stored, its natural key, and how it is fetched and mapped. */
export type SyncTypeDefinition = DataType<SyncTypeKey>

/** Per-type record counts as the sync result reports them. */
export type SyncCounts = Record<SyncTypeKey, number>

/** Zero counts for every type. */
export function emptyCounts(): SyncCounts {
  return Object.fromEntries(SYNC_TYPE_KEYS.map((key) => [key, 0])) as SyncCounts
}
