import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import RawPayload from '#models/raw_payload'
import type User from '#models/user'
import RawArchiveUnavailableException from '#exceptions/raw_archive_unavailable_exception'
import { DatabaseCatalog } from '#services/database_catalog'
import { exportValue, jsonLine, JsonText } from '#services/export/stored_rows'
import { chunked, type TakeoutPart } from '#services/export/takeout_parts'
import { columnOf, type AttributeOf } from '#services/records/columns'
import { DATA_TYPE_KEYS } from '#services/records/data_types'

/** Archive entries per query: compressed payloads are small, one decompressed exercise can be large. */
const RAW_PAGE_ROWS = 20

const column = (attribute: AttributeOf<typeof RawPayload>) => columnOf(RawPayload, attribute)
const TIMESTAMP = { name: 'timestamp', type: 'timestamp', kind: 'timestamp', nullable: false } as const

/**
 * The raw-payload archive's files of a takeout: `raw/<type>.jsonl` for every type the user's archive
 * holds (catalogue order), one line per archived wire item, oldest entry first:
 * `{type, natural_key, content_hash, fetched_at, last_seen_at, payload}` where `payload` is the item
 * exactly as Polar sent it (decompressed, keys sorted as archived; its SHA-256 is `content_hash`).
 */
@inject()
export class RawTakeoutSource {
  constructor(protected catalog: DatabaseCatalog) {}

  /** The archive's files for `user`; RawArchiveUnavailableException (422) when the database has no archive table. */
  async parts(user: User): Promise<TakeoutPart[]> {
    if (!(await this.catalog.tables()).includes(RawPayload.table)) throw new RawArchiveUnavailableException()
    const rows = (await db
      .from(RawPayload.table)
      .where(column('userId'), user.id)
      .distinct(column('type'))) as Array<Record<string, string>>
    const order = (type: string) => (DATA_TYPE_KEYS.includes(type as never) ? DATA_TYPE_KEYS.indexOf(type as never) : DATA_TYPE_KEYS.length)
    const types = rows.map((row) => row[column('type')]).sort((a, b) => order(a) - order(b) || a.localeCompare(b))
    return types.map((type) => ({ name: `raw/${type}.jsonl`, content: () => chunked(this.lines(user.id, type)) }))
  }

  /** One JSON Lines line per archive entry of `type`, in id order, read in keyset pages. */
  protected async *lines(userId: number, type: string): AsyncGenerator<{ text: string; rows: number }> {
    let after = 0
    while (true) {
      const page = (await db
        .from(RawPayload.table)
        .where(column('userId'), userId)
        .where(column('type'), type)
        .where('id', '>', after)
        .orderBy('id', 'asc')
        .limit(RAW_PAGE_ROWS)
        .select('id', ...(['type', 'naturalKey', 'contentHash', 'fetchedAt', 'lastSeenAt', 'payload'] as const).map(column))) as Array<
        Record<string, any>
      >
      for (const entry of page) {
        const text = jsonLine({
          type: entry[column('type')],
          natural_key: entry[column('naturalKey')],
          content_hash: entry[column('contentHash')],
          fetched_at: exportValue(TIMESTAMP, entry[column('fetchedAt')]),
          last_seen_at: exportValue(TIMESTAMP, entry[column('lastSeenAt')]),
          payload: new JsonText(RawPayload.decode(entry[column('payload')])),
        })
        yield { text, rows: 1 }
      }
      if (page.length < RAW_PAGE_ROWS) return
      after = Number(page[page.length - 1].id)
    }
  }
}
