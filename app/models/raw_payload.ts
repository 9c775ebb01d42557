import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib'
import { RawPayloadSchema } from '#database/schema'

/**
 * Brotli quality of archived payloads. Over a simulated user-year (3 756 items, 24.3 MB of JSON):
 * quality 4 stores 4.72 MB in 337 ms, quality 5 4.52 MB in 546 ms (655 ms without the size hint,
 * as it ran before), gzip 5.03 MB in 550 ms. A first sync compresses every item it brings, so 4.
 */
const BROTLI_QUALITY = 4

/**
 * One wire item Polar served, as archived: `payload` is the item's canonical JSON (object keys
 * sorted, so `contentHash` is its SHA-256) compressed with brotli. `type` is the catalogue key of
 * the type that pulled it, `naturalKey` the natural-key values of the row it maps to
 * (`unmapped:<hash>` when none); `fetchedAt` is when this content was first fetched, `lastSeenAt`
 * the latest fetch that brought it, to within a day (RawArchiveService moves it when due).
 */
export default class RawPayload extends RawPayloadSchema {
  static table = 'raw_payloads'

  /** Compresses an item's canonical JSON for the `payload` column. */
  static encode(json: string): Buffer {
    const bytes = Buffer.from(json, 'utf8')
    return brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    })
  }

  /**
   * The canonical JSON of a stored `payload` value (a Buffer on both databases): one line, so it
   * can be written as a JSON Lines record as it is.
   */
  static decode(payload: Buffer | Uint8Array): string {
    return brotliDecompressSync(payload).toString('utf8')
  }

  /** The archived item's canonical JSON (one line). */
  payloadText(): string {
    return RawPayload.decode(this.payload)
  }

  /** The archived item, parsed: the wire object exactly as Polar sent it (keys sorted). */
  payloadJson(): unknown {
    return JSON.parse(this.payloadText())
  }
}
