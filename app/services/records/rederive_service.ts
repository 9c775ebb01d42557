import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import lock from '@adonisjs/lock/services/main'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import RawPayload from '#models/raw_payload'
import User from '#models/user'
import SyncInProgressException from '#exceptions/sync_in_progress_exception'
import { AnalyticsService } from '#services/analytics/analytics_service'
import { ClockService } from '#services/clock_service'
import { DataVersionService } from '#services/data_version_service'
import { UserService } from '#services/user_service'
import { selectAttributes } from '#services/records/columns'
import { DATA_TYPES, dataType, type DataType, type DataTypeKey, type MapContext } from '#services/records/data_types'
import { naturalKeyAttributes, naturalKeyText } from '#services/records/raw_archive_service'
import { latestSleepOffset, upsertRows } from '#services/sync/queries'
import { userSyncLockKey } from '#services/sync/user_sync_service'

/** Archived payloads mapped and compared per step: bounds memory for a user with years of samples. */
const REDERIVE_CHUNK = 200

/** Lifetime of the user's sync lock while re-deriving, renewed every LOCK_RENEW_MS. */
const LOCK_TTL = '30s'
const LOCK_RENEW_MS = 10_000

/** What `data:rederive` may be limited to. */
export interface RederiveOptions {
  /** One user's external id; every user with archived payloads when absent. */
  user?: string
  /** One catalogue key; every type when absent. */
  type?: DataTypeKey
  /** Report without writing (the transaction is rolled back). */
  dryRun?: boolean
}

/** The outcome of one type of one user, compared with the rows stored before. */
export interface RederivedType {
  type: DataTypeKey
  /** Archived payloads mapped (the newest per natural key, of the type or the type it maps from). */
  payloads: number
  /** Rows the payloads mapped to, by natural key. */
  rows: number
  /** Rows that were not stored. */
  added: number
  /** Rows stored with other values in a mapped column. */
  changed: number
  unchanged: number
}

/** The outcome for one user: every type, or the error that rolled the user's transaction back. */
export interface RederivedUser {
  userId: string
  types: RederivedType[]
  /** True when rows were written (committed, not a dry run, and something added or changed). */
  written: boolean
  error: string | null
}

/**
 * Rebuilds the typed rows from the raw-payload archive with the current catalogue mappers
 * (issue 19): per user and type the newest archived payload per natural key is mapped (no sync
 * window: every payload counts; `offsetMinutes` from the stored nights), compared with the stored
 * rows on the mapped columns and upserted with the sync's own upsert, inside one transaction per
 * user that also bumps the user's data version, so no read cache serves an answer from before. A
 * dry run does the same and rolls back. The user's sync lock is held meanwhile.
 */
@inject()
export class RederiveService {
  constructor(
    protected clock: ClockService,
    protected users: UserService,
    protected analytics: AnalyticsService
  ) {}

  /** The users a run covers: the one named (UnknownUserException, 404, if none), or all with archived payloads. */
  async usersOf(externalId?: string): Promise<User[]> {
    if (externalId !== undefined) return [await this.users.findOrFail(externalId)]
    const archived = RawPayload.query().distinct('userId')
    return User.query().whereIn('id', archived).orderBy('id')
  }

  /** The catalogue types a run covers, in catalogue order (sleep first: later types read its offsets). */
  typesOf(key?: DataTypeKey): DataType<DataTypeKey>[] {
    return key === undefined ? [...DATA_TYPES] : [dataType(key)]
  }

  /**
   * Re-derives one user's rows for `types` in one transaction (rolled back for a dry run), then
   * recomputes analytics when rows were written. A failure rolls the user back and is reported,
   * never thrown, so a run over many users goes on.
   */
  async rederiveUser(user: User, types: DataType<DataTypeKey>[], dryRun = false): Promise<RederivedUser> {
    const report: RederivedUser = { userId: user.externalId, types: [], written: false, error: null }
    const userLock = lock.createLock(userSyncLockKey(user.id), LOCK_TTL)
    if (!(await userLock.acquireImmediately())) {
      report.error = new SyncInProgressException(user.externalId).message
      return report
    }
    const renewal = setInterval(() => {
      userLock.extend(LOCK_TTL).catch((error) => logger.warn({ err: error, userId: user.id }, 'could not renew the sync lock'))
    }, LOCK_RENEW_MS)
    renewal.unref()
    try {
      const trx = await db.transaction()
      try {
        for (const type of types) report.types.push(await this.rederiveType(trx, user, type))
        if (dryRun) {
          await trx.rollback()
        } else {
          await DataVersionService.bump(trx, user.id)
          await trx.commit()
          report.written = report.types.some((t) => t.added + t.changed > 0)
        }
      } catch (error) {
        await trx.rollback()
        throw error
      }
    } catch (error) {
      logger.error({ err: error, userId: user.id }, 'data:rederive failed; the user was rolled back')
      report.types = []
      report.error = `Re-deriving failed and was rolled back: ${(error as Error).message}`
      return report
    } finally {
      clearInterval(renewal)
      await userLock.release()
    }
    if (report.written) await this.analytics.recomputeAfterSync(user.id)
    logger.info({ userId: user.id, dryRun, types: report.types }, 'data:rederive finished')
    return report
  }

  /**
   * One type: the newest payload per natural key (latest `last_seen_at`, then id) of the archive
   * of the type, or of the type it maps from, mapped in chunks oldest-seen first, so when two
   * payloads map to the same row the one Polar served last wins (as in upsertRows).
   */
  protected async rederiveType(trx: TransactionClientContract, user: User, type: DataType<DataTypeKey>): Promise<RederivedType> {
    const outcome: RederivedType = { type: type.key, payloads: 0, rows: 0, added: 0, changed: 0, unchanged: 0 }
    const entries = await RawPayload.query({ client: trx })
      .pojo<{ id: number; naturalKey: string }>()
      .where('userId', user.id)
      .where('type', type.from ?? type.key)
      .orderBy('lastSeenAt', 'asc')
      .orderBy('id', 'asc')
      .select(selectAttributes(RawPayload, ['id', 'naturalKey']))
    const newest = new Map<string, number>()
    for (const entry of entries) {
      newest.delete(entry.naturalKey)
      newest.set(entry.naturalKey, Number(entry.id))
    }
    const ids = [...newest.values()]
    outcome.payloads = ids.length

    let offset: Promise<number | null> | null = null
    const ctx: MapContext = { offsetMinutes: () => (offset ??= latestSleepOffset(trx, user.id)) }
    const counted = new Set<string>()
    for (let i = 0; i < ids.length; i += REDERIVE_CHUNK) {
      const chunk = ids.slice(i, i + REDERIVE_CHUNK)
      const payloads = await RawPayload.query({ client: trx })
        .pojo<{ id: number; payload: Buffer }>()
        .whereIn('id', chunk)
        .select(selectAttributes(RawPayload, ['id', 'payload']))
      const byId = new Map(payloads.map((p) => [Number(p.id), p.payload]))
      const items = chunk.map((id) => JSON.parse(RawPayload.decode(byId.get(id)!)) as unknown)
      const rows = lastPerKey(type, await type.map(items, ctx))
      if (rows.length === 0) continue
      const stored = await storedRows(trx, user, type, rows)
      for (const row of rows) {
        const key = naturalKeyText(type, row)
        if (counted.has(key)) continue
        counted.add(key)
        const before = stored.get(key)
        if (!before) outcome.added++
        else if (Object.keys(row).some((attribute) => !sameValue(row[attribute], before[attribute]))) outcome.changed++
        else outcome.unchanged++
      }
      await upsertRows(trx, type.table, user.id, type.naturalKey, rows, this.clock.now())
    }
    outcome.rows = counted.size
    return outcome
  }
}

/** Mapped rows with one row per natural key, the last one (as upsertRows keeps them). */
function lastPerKey(type: DataType, rows: Record<string, unknown>[]): Record<string, unknown>[] {
  const byKey = new Map<string, Record<string, unknown>>()
  for (const row of rows) {
    const key = naturalKeyText(type, row)
    byKey.delete(key)
    byKey.set(key, row)
  }
  return [...byKey.values()]
}

/**
 * The stored rows of `rows`' natural keys, by natural-key text, with the attributes the rows map
 * (read by the first key column, in batches; composite keys are matched in memory).
 */
async function storedRows(trx: TransactionClientContract, user: User, type: DataType, rows: Record<string, unknown>[]) {
  const keyAttributes = naturalKeyAttributes(type)
  const attributes = [...new Set([...keyAttributes, ...rows.flatMap((row) => Object.keys(row))])]
  const firstValues = [...new Set(rows.map((row) => row[keyAttributes[0]]))]
  const stored = new Map<string, Record<string, unknown>>()
  for (let i = 0; i < firstValues.length; i += REDERIVE_CHUNK) {
    const found = await type.model
      .query({ client: trx })
      .pojo<Record<string, unknown>>()
      .where('userId', user.id)
      .whereIn(keyAttributes[0], firstValues.slice(i, i + REDERIVE_CHUNK) as string[])
      .select(selectAttributes(type.model, attributes))
    for (const row of found) stored.set(naturalKeyText(type, row), row)
  }
  return stored
}

/**
 * Whether a mapped value equals a stored one as the databases return it: null and undefined are
 * equal, booleans are 0/1 on SQLite, numeric strings are numbers, and floats compare to 1e-6
 * relative (PostgreSQL `real` keeps about 7 digits).
 */
function sameValue(mapped: unknown, stored: unknown): boolean {
  const a = comparable(mapped)
  const b = comparable(stored)
  if (typeof a === 'number' && typeof b === 'number') {
    return a === b || Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b))
  }
  if (typeof a === 'number' && typeof b === 'string' && b.trim() !== '' && Number.isFinite(Number(b))) return sameValue(a, Number(b))
  if (typeof b === 'number' && typeof a === 'string' && a.trim() !== '' && Number.isFinite(Number(a))) return sameValue(Number(a), b)
  return a === b
}

function comparable(value: unknown): unknown {
  if (value === undefined || value === null) return null
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'bigint') return Number(value)
  if (value instanceof Date) return value.getTime()
  if (typeof value === 'object') return JSON.stringify(value)
  return value
}
