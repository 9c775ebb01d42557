import { createHash } from 'node:crypto'
import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import env from '#start/env'
import RawPayload from '#models/raw_payload'
import { ClockService } from '#services/clock_service'
import { columnOf, type AttributeOf } from '#services/records/columns'
import { dataType, type DataType, type DataTypeKey, type MapContext } from '#services/records/data_types'
import { latestSleepOffset } from '#services/sync/queries'
import { rawRows } from '#services/hot_queries'

/** Archive rows per INSERT: 7 bindings each, far below SQLite's bind-parameter limit. */
const ARCHIVE_BATCH_SIZE = 500

/**
 * JSON with object keys sorted at every level: equal content gives equal text, whatever the key
 * order. The archive's content hashes are of this text, so it never changes: it is exactly what
 * `JSON.stringify` with a replacer rebuilding each object with its keys inserted in sorted order
 * wrote (integer-like keys come first, ascending, as in any object). The objects are rebuilt
 * first and stringified without a replacer, which ran once for every value of every payload.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(withSortedKeys(value))
}

/** The value with every object rebuilt with its keys in sorted order (arrays copied only when they hold objects). */
function withSortedKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null
    for (let i = 0; i < value.length; i++) {
      const item = value[i]
      if (item !== null && typeof item === 'object') {
        copy ??= value.slice()
        copy[i] = withSortedKeys(item)
      }
    }
    return copy ?? value
  }
  // A Date or another object with toJSON: JSON.stringify writes what toJSON gives, as before.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value
  const sorted: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) sorted[key] = withSortedKeys((value as Record<string, unknown>)[key])
  return sorted
}

/** SHA-256 (hex) of a canonical JSON text: the archive's content hash. */
export function contentHashOf(canonical: string): string {
  return createHash('sha256').update(canonical, 'utf8').digest('hex')
}

/** Whether wire items are archived (RAW_ARCHIVE_ENABLED, default true). */
export function rawArchiveEnabled(): boolean {
  return env.get('RAW_ARCHIVE_ENABLED') ?? true
}

/** The values of a row's natural key, as the archive's `natural_key` text. */
export function naturalKeyText(type: DataType, row: Record<string, unknown>): string {
  return naturalKeyAttributes(type)
    .map((attribute) => String(row[attribute] ?? ''))
    .join('|')
}

/** The attributes (camelCase) of a type's natural-key columns. */
export function naturalKeyAttributes(type: DataType): string[] {
  return type.naturalKey.map((column) => type.model.$keys.columnsToAttributes.get(column) ?? column)
}

/** One item as the archive keeps it (its canonical JSON, compressed only when new). */
interface ArchiveEntry {
  naturalKey: string
  contentHash: string
  canonical: string
}

/** An entry's identity within one user's type: its natural key and content hash. */
const entryId = (entry: { naturalKey: string; contentHash: string }) => `${entry.naturalKey}\u0000${entry.contentHash}`

/** (natural key, content hash) pairs per lookup statement: 2 bindings each. */
const KNOWN_BATCH_SIZE = 400

/**
 * How old an archived entry's `last_seen_at` may get before a fetch of the same content moves it.
 * An hourly re-sync brings every day of its window again; moving each entry every time rewrote the
 * whole window's archive every hour (a write, a dead tuple and a commit flush per item) for a date
 * that only needs to say the content is still what Polar serves. An entry is also moved whenever
 * another version of its natural key was seen after it, so the newest-seen version of each key, the
 * one re-derive maps, is always the one Polar served last.
 */
const TOUCH_AFTER_MS = 24 * 3_600_000

/**
 * The raw-payload archive (issue 19): every wire item a pull produced, kept compressed per user,
 * type, natural key and content hash, so a mapper fixed later can re-derive rows from what Polar
 * served (`node ace data:rederive`). Identical content fetched again at most moves `last_seen_at`.
 * Retention is forever; RAW_ARCHIVE_ENABLED=false stops archiving (kept entries stay).
 */
@inject()
export class RawArchiveService {
  constructor(protected clock: ClockService) {}

  /**
   * Archives the items one pull of `key` produced (types with `from` pull nothing and archive
   * nothing). Never throws: a failure is logged and returned as a message safe to store in a sync
   * run, so it can never cost the rows written beside it. Null when archived (or disabled).
   */
  async keep(userId: number, key: DataTypeKey, items: unknown[]): Promise<string | null> {
    if (items.length === 0 || !rawArchiveEnabled()) return null
    try {
      await this.store(db.connection(), userId, key, items)
      return null
    } catch (error) {
      logger.error({ err: error, userId, type: key, items: items.length }, 'raw archive write failed; the rows were stored')
      return 'Archiving the raw payloads failed inside HRVault; the error was logged.'
    }
  }

  /**
   * Writes the archive entries of `items` in bulk. Entries already archived (same user, type,
   * natural key and content hash: a re-sync of unchanged days, most of every hourly sync) are never
   * compressed or sent again, only their `last_seen_at` moved when due (see touchKnown); new ones
   * are compressed and inserted (`INSERT … ON CONFLICT (user_id, type, natural_key, content_hash)
   * DO UPDATE SET last_seen_at`, for a writer that archived the same content meanwhile). Each
   * item's natural key comes from mapping it alone with the type's current `map` (no window: every
   * item counts); an item that maps to no row, or that the mapper rejects, is kept as
   * `unmapped:<hash>`. Returns the number of distinct entries written or confirmed.
   */
  async store(client: QueryClientContract, userId: number, key: DataTypeKey, items: unknown[]): Promise<number> {
    const type = dataType(key)
    let offset: Promise<number | null> | null = null
    const ctx: MapContext = { offsetMinutes: () => (offset ??= latestSleepOffset(client, userId)) }
    const entries = new Map<string, ArchiveEntry>()
    for (const item of items) {
      const canonical = canonicalJson(item)
      const contentHash = contentHashOf(canonical)
      const naturalKey = (await this.naturalKeyOf(type, item, ctx)) ?? `unmapped:${contentHash}`
      const id = entryId({ naturalKey, contentHash })
      if (!entries.has(id)) entries.set(id, { naturalKey, contentHash, canonical })
    }
    const stamp = this.clock.now().toFormat(client.dialect.dateTimeFormat)
    const column = (attribute: AttributeOf<typeof RawPayload>) => columnOf(RawPayload, attribute)
    const known = await this.touchKnown(client, userId, key, [...entries.values()], stamp)
    const records = [...entries.values()]
      .filter((entry) => !known.has(entryId(entry)))
      .map((entry) => ({
        [column('userId')]: userId,
        [column('type')]: key,
        [column('naturalKey')]: entry.naturalKey,
        [column('contentHash')]: entry.contentHash,
        [column('payload')]: RawPayload.encode(entry.canonical),
        [column('fetchedAt')]: stamp,
        [column('lastSeenAt')]: stamp,
      }))
    const conflict = (['userId', 'type', 'naturalKey', 'contentHash'] as const).map(column)
    for (let i = 0; i < records.length; i += ARCHIVE_BATCH_SIZE) {
      await client
        .knexQuery()
        .table(RawPayload.table)
        .insert(records.slice(i, i + ARCHIVE_BATCH_SIZE))
        .onConflict(conflict)
        .merge({ [column('lastSeenAt')]: stamp })
    }
    return entries.size
  }

  /**
   * Returns the ids (natural key, NUL, content hash) of the entries already archived, read in one
   * statement per batch, and moves `last_seen_at` of those due (TOUCH_AFTER_MS old, or another
   * version of the key seen after them): an unchanged re-sync within a day writes nothing here.
   */
  protected async touchKnown(client: QueryClientContract, userId: number, key: DataTypeKey, entries: ArchiveEntry[], stamp: string) {
    const known = new Set<string>()
    const due: number[] = []
    const [table, id, user, type, naturalKey, contentHash, lastSeenAt] = [
      RawPayload.table,
      columnOf(RawPayload, 'id'),
      columnOf(RawPayload, 'userId'),
      columnOf(RawPayload, 'type'),
      columnOf(RawPayload, 'naturalKey'),
      columnOf(RawPayload, 'contentHash'),
      columnOf(RawPayload, 'lastSeenAt'),
    ]
    const dueBefore = this.clock.now().minus({ milliseconds: TOUCH_AFTER_MS }).toFormat(client.dialect.dateTimeFormat)
    for (let i = 0; i < entries.length; i += KNOWN_BATCH_SIZE) {
      const batch = entries.slice(i, i + KNOWN_BATCH_SIZE)
      const pairs = batch.map(() => '(?, ?)').join(', ')
      const result = await client.rawQuery(
        `select k.${id} as "id", k.${naturalKey} as "naturalKey", k.${contentHash} as "contentHash", ` +
          `case when k.${lastSeenAt} <= ? or exists (select 1 from ${table} o where o.${user} = k.${user} and o.${type} = k.${type} ` +
          `and o.${naturalKey} = k.${naturalKey} and o.${lastSeenAt} > k.${lastSeenAt}) then 1 else 0 end as "due" ` +
          `from ${table} k where k.${user} = ? and k.${type} = ? and (k.${naturalKey}, k.${contentHash}) in (${pairs})`,
        [dueBefore, userId, key, ...batch.flatMap((entry) => [entry.naturalKey, entry.contentHash])]
      )
      for (const row of rawRows<{ id: number; naturalKey: string; contentHash: string; due: number | string }>(result)) {
        known.add(entryId(row))
        if (Number(row.due) === 1) due.push(Number(row.id))
      }
    }
    for (let i = 0; i < due.length; i += KNOWN_BATCH_SIZE) {
      await client
        .knexQuery()
        .table(table)
        .whereIn(id, due.slice(i, i + KNOWN_BATCH_SIZE))
        .update({ [lastSeenAt]: stamp })
    }
    return known
  }

  /**
   * The natural key of the row(s) one item maps to (several rows: their keys, sorted, joined by
   * `;`); null when it maps to none or the mapper throws on it.
   */
  protected async naturalKeyOf(type: DataType, item: unknown, ctx: MapContext): Promise<string | null> {
    let rows: Record<string, unknown>[]
    try {
      rows = await type.map([item], ctx)
    } catch {
      return null
    }
    if (rows.length === 0) return null
    const keys = [...new Set(rows.map((row) => naturalKeyText(type, row)))].sort()
    const text = keys.join(';')
    return text.length <= 200 ? text : `rows:${contentHashOf(text)}`
  }
}
