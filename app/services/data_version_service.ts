import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/** A user's identity and the version of their stored data. */
export interface UserDataVersion {
  id: number
  /** `users.data_version`: starts at a random value (see User) and is bumped by every write of the user's data. */
  version: number
}

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
   * The user's id and data version in one indexed read; null for an unknown user. A raw statement:
   * it runs before every cached answer, where the query builder's own work was a visible share.
   */
  async current(externalId: string): Promise<UserDataVersion | null> {
    const result = await db.rawQuery('select id, data_version from users where external_id = ? limit 1', [externalId])
    const row = (Array.isArray(result) ? result[0] : result.rows[0]) as { id: number; data_version: number } | undefined
    return row ? { id: Number(row.id), version: Number(row.data_version) } : null
  }
}
