import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import { ZipFile } from 'yazl'
import Baseline from '#models/baseline'
import Pattern from '#models/pattern'
import type User from '#models/user'
import { ClockService } from '#services/clock_service'
import { DatabaseCatalog } from '#services/database_catalog'
import { rowPages } from '#services/export/stored_rows'
import { chunked, csvPieces, jsonlPieces, type TakeoutPart } from '#services/export/takeout_parts'
import { RawTakeoutSource } from '#services/export/raw_takeout_source'
import { DATA_TYPES } from '#services/records/data_types'
import { UserService } from '#services/user_service'

/** One file of the archive as the manifest lists it. */
export interface TakeoutFileEntry {
  name: string
  /** Data rows in the file (CSV header not counted). */
  rows: number
  bytes: number
  /** SHA-256 of the file's bytes, hex. */
  sha256: string
}

/** `manifest.json`, the archive's last file. */
export interface TakeoutManifest {
  format: 'hrvault-takeout/1'
  user_id: string
  generated_at: string
  app_version: string | null
  raw_included: boolean
  files: TakeoutFileEntry[]
}

/** A takeout ready to stream. */
export interface Takeout {
  filename: string
  stream: Readable
}

/**
 * The full takeout of one user (issue 19): a ZIP streamed as it is written, with `<type>.jsonl` and
 * `<type>.csv` for every catalogued data type (the whole stored history, oldest first, every stored
 * column), `baselines.jsonl`, `patterns.jsonl`, optionally the raw-payload archive under `raw/`, and
 * last `manifest.json` with each file's row count and SHA-256 (computed while the file streams).
 * Rows are read in keyset pages and the ZIP is never held whole, so memory stays bounded for any
 * history. Everything that can fail with a problem response (unknown user, raw archive missing,
 * the tables' catalogue) is checked in {@link open}, before the first byte.
 */
@inject()
export class TakeoutService {
  constructor(
    protected users: UserService,
    protected clock: ClockService,
    protected catalog: DatabaseCatalog,
    protected raw: RawTakeoutSource
  ) {}

  /**
   * Opens the takeout of `externalId`: UnknownUserException (404); with `raw`,
   * RawArchiveUnavailableException (422) when this installation keeps no raw archive.
   */
  async open(externalId: string, options: { raw?: boolean } = {}): Promise<Takeout> {
    const user = await this.users.findOrFail(externalId)
    const raw = options.raw ? await this.raw.parts(user) : []
    const parts = [...(await this.parts(user)), ...raw]
    const now = this.clock.now()
    const manifest: TakeoutManifest = {
      format: 'hrvault-takeout/1',
      user_id: user.externalId,
      generated_at: now.toUTC().toISO()!,
      app_version: app.version?.toString() ?? null,
      raw_included: Boolean(options.raw),
      files: [],
    }
    const zip = new ZipFile()
    const mtime = now.toJSDate()
    for (const part of parts) {
      zip.addReadStreamLazy(part.name, { mtime }, (callback) => callback(null, this.measured(part, manifest, zip)))
    }
    // Lazy as well: yazl asks for it only once every file before it is written, hashes included.
    zip.addReadStreamLazy('manifest.json', { mtime }, (callback) =>
      callback(null, Readable.from([Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)]))
    )
    zip.end()
    return { filename: `hrvault-${user.externalId}-${now.toISODate()}.zip`, stream: zip.outputStream as Readable }
  }

  /** The files of the stored data, their tables' columns read now (a failure is still a problem). */
  protected async parts(user: User): Promise<TakeoutPart[]> {
    const parts: TakeoutPart[] = []
    for (const type of DATA_TYPES) {
      const columns = await this.catalog.columns(type.table)
      const pages = () => rowPages({ table: type.table, columns, userId: user.id, orderColumn: type.dateColumn })
      parts.push({ name: `${type.key}.jsonl`, content: () => chunked(jsonlPieces(pages())) })
      parts.push({ name: `${type.key}.csv`, content: () => chunked(csvPieces(columns, pages())) })
    }
    for (const [name, table] of [
      ['baselines', Baseline.table],
      ['patterns', Pattern.table],
    ]) {
      const columns = await this.catalog.columns(table)
      const pages = () => rowPages({ table, columns, userId: user.id })
      parts.push({ name: `${name}.jsonl`, content: () => chunked(jsonlPieces(pages())) })
    }
    return parts
  }

  /**
   * The part's bytes as a stream that hashes and counts them on the way and lists the file in the
   * manifest when it ends. A failure mid-archive (the response has started) aborts the download.
   */
  protected measured(part: TakeoutPart, manifest: TakeoutManifest, zip: ZipFile): Readable {
    async function* bytes() {
      const hash = createHash('sha256')
      let size = 0
      let rows = 0
      for await (const { chunk, rows: count } of part.content()) {
        const buffer = Buffer.from(chunk, 'utf8')
        hash.update(buffer)
        size += buffer.length
        rows += count
        if (buffer.length > 0) yield buffer
      }
      manifest.files.push({ name: part.name, rows, bytes: size, sha256: hash.digest('hex') })
    }
    const stream = Readable.from(bytes(), { objectMode: false })
    stream.on('error', (error) => {
      logger.error({ err: error, file: part.name }, 'takeout stream failed')
      ;(zip.outputStream as Readable).destroy(error)
    })
    return stream
  }
}
