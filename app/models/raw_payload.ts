import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib'
import { RawPayloadSchema } from '#database/schema'

/**
 * Brotli quality of archived payloads: 5 keeps a sync's compression cheap (a year of one user's
 * items in well under a second) while coming close to the best ratio on small JSON items.
 */
const BROTLI_QUALITY = 5

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
    return brotliCompressSync(Buffer.from(json, 'utf8'), {
      params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
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
