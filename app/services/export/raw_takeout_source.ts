import type User from '#models/user'
import RawArchiveUnavailableException from '#exceptions/raw_archive_unavailable_exception'
import type { TakeoutPart } from '#services/export/takeout_parts'

/**
 * The raw-payload archive's files of a takeout (`raw/<type>.jsonl`). This installation keeps no raw
 * archive yet, so asking for it is a 422 before the download starts.
 */
export class RawTakeoutSource {
  /** The archive's files for `user`; RawArchiveUnavailableException (422) while there is no archive. */
  async parts(_user: User): Promise<TakeoutPart[]> {
    throw new RawArchiveUnavailableException()
  }
}
