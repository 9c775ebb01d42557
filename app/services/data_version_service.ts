import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { HotQueries } from '#services/hot_queries'
import { CoalescedCalls } from '#services/coalesced_calls'

/** A user's identity and the version of their stored data. */
export interface UserDataVersion {
  id: number
  /** `users.data_version`: starts at a random value (see User) and is bumped by every write of the user's data. */
  version: number
}

const VERSION_SQL = 'select id, data_version from users where external_id = ? limit 1'
type VersionRow = { id: number; data_version: number }
const versionOf = (row: VersionRow | undefined) => (row ? { id: Number(row.id), version: Number(row.data_version) } : null)

/**
 * Concurrent reads of one user's version share a query that starts after each of them arrived
 * (CoalescedCalls): under load one read instead of one per request, never an older answer. On
 * PostgreSQL that is one round trip, at most two of them on the way at once (on two pooled
 * clients); on SQLite, whose read runs synchronously, the requests of one event-loop turn share one
 * read (each read in WAL mode starts and ends a read transaction on the shared-memory index, which
 * was about a seventh of a cached answer's CPU at 16 connections).
 */
const reads = new CoalescedCalls<string, UserDataVersion | null>(async (externalId) => {
  return versionOf(await HotQueries.first<VersionRow>(VERSION_SQL, [externalId]))
}, 2)

/**
 * The per-user data version (`users.data_version`). Every writer of a user's
 * stored data (sync upserts, stored baselines and patterns) bumps it inside
 * its own transaction, so the bump commits exactly when the data does; read
 * caches key on it and can never serve an answer older than the data.
 */
export class DataVersionService {
  /** The bump as SQL with the user id as its one binding (for writers that bump in the same statement). */
  static readonly BUMP_SQL = 'update users set data_version = data_version + 1 where id = ?'

  /** Bumps the version inside the writer's transaction. */
  static async bump(client: QueryClientContract, userId: number): Promise<void> {
    await client.rawQuery(DataVersionService.BUMP_SQL, [userId])
  }

  /**
   * The user's id and data version in one indexed read; null for an unknown user. A prepared
   * statement on the driver (HotQueries): it runs before every cached answer, where the query
   * builder's own work was most of the cost. Always read from the database, never remembered, so
   * a write committed by any process changes the next answer.
   */
  async current(externalId: string): Promise<UserDataVersion | null> {
    return (await reads.call(externalId)).result
  }
}
