import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import { DATA_TYPES, type DataTypeKey } from '#services/records/data_types'
import { rawRows } from '#services/hot_queries'

/** Data tables shown per user, in catalogue order (data-type key → table); labels in DATA_TYPE_LABELS. */
export const RECORD_TABLES = Object.fromEntries(DATA_TYPES.map((type) => [type.key, type.table])) as Record<
  DataTypeKey,
  string
>

export type RecordType = DataTypeKey

/** One user of the users page: the account, stored records per type and the latest sync run. */
export interface AdminUserSummary {
  user: User
  counts: Record<RecordType, number>
  lastRun: SyncRun | null
}

/** The users page: every user with connection state, last sync and stored records per type. */
export class AdminUsersService {
  async list(): Promise<AdminUserSummary[]> {
    const users = await User.query().orderBy('externalId', 'asc')
    if (users.length === 0) return []
    const counts = await this.countsByUser()
    const lastRuns = await this.lastRuns()
    return users.map((user) => ({
      user,
      counts: Object.fromEntries(
        Object.keys(RECORD_TABLES).map((type) => [type, counts.get(`${user.id}:${type}`) ?? 0])
      ) as Record<RecordType, number>,
      lastRun: lastRuns.get(user.id) ?? null,
    }))
  }

  /** One user's row of the users page (the per-user page's header). */
  async summary(user: User): Promise<AdminUserSummary> {
    const counts = await this.countsByUser([user.id])
    const lastRun = (await this.lastRuns([user.id])).get(user.id) ?? null
    return {
      user,
      counts: Object.fromEntries(
        Object.keys(RECORD_TABLES).map((type) => [type, counts.get(`${user.id}:${type}`) ?? 0])
      ) as Record<RecordType, number>,
      lastRun,
    }
  }

  /** Sets or removes (null) the name shown beside the Polar id; the value is validated already. */
  async rename(user: User, displayName: string | null): Promise<User> {
    user.displayName = displayName === null || displayName.trim() === '' ? null : displayName.trim()
    return user.save()
  }

  async externalIds(): Promise<string[]> {
    const users = await User.query().select('externalId').orderBy('externalId', 'asc')
    return users.map((user) => user.externalId)
  }

  async findByExternalId(externalId: string) {
    return User.findBy('externalId', externalId)
  }

  /**
   * Every table's rows per user (all users, or only `userIds`) in one statement: one round trip
   * and one connection, where a query per table in parallel took a dozen of the pool's connections
   * (and, inside a transaction, queued a dozen queries on its one client).
   */
  protected async countsByUser(userIds?: number[]) {
    const only = userIds ? `where user_id in (${userIds.map(() => '?').join(', ')})` : ''
    const tables = Object.entries(RECORD_TABLES)
    const sql = tables
      .map(([, table]) => `select cast(? as text) as "type", user_id as "userId", count(*) as "n" from ${table} ${only} group by user_id`)
      .join(' union all ')
    const bindings = tables.flatMap(([type]) => [type, ...(userIds ?? [])])
    const rows = rawRows<{ type: string; userId: number; n: number | string }>(await db.rawQuery(sql, bindings))
    return new Map(rows.map((row) => [`${row.userId}:${row.type}`, Number(row.n)]))
  }

  /** Each user's latest sync run (all users, or only `userIds`): no id list bound for the whole page. */
  protected async lastRuns(userIds?: number[]) {
    const latest = db.from('sync_runs').groupBy('user_id').max('id as id')
    if (userIds) latest.whereIn('user_id', userIds)
    const runs = await SyncRun.query().whereIn('id', latest)
    return new Map(runs.map((run) => [run.userId, run]))
  }
}
