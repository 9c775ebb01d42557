import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import type { ApiKeyIdentity } from '#services/auth/api_key_service'
import { UserService } from '#services/user_service'
import { LocalTokenStore } from '#services/polar/local_token_store'
import { DATA_TYPES, type DataTypeKey } from '#services/records/data_types'
import { toPage, type Page, type PageRequest } from '#services/api/pagination'

/**
 * How HRVault reaches the user's Polar data: `oauth` (connected through the OAuth flow, in the admin
 * UI or `node ace polar:auth`), `token` (a token stored from a sync trigger's `X-Provider-Token`),
 * `none` (no usable token: only a trigger with the header can sync).
 */
export type ConnectionState = 'oauth' | 'token' | 'none'

/** What discovery tells about one user. */
export interface UserDirectoryEntry {
  user: User
  connection: ConnectionState
  /** Distinct dates with data per catalogue type, all history. */
  dataDays: Record<DataTypeKey, number>
  firstDataDate: string | null
  lastDataDate: string | null
  lastRun: SyncRun | null
}

interface TableStats {
  days: number
  first: string | null
  last: string | null
}

/**
 * `GET /users` and `GET /users/{user_id}` (discovery): users by row id in keyset pages, each with
 * connection state, Polar account binding, data days per type, first and last data date and the
 * latest sync run. One grouped query per data type for a whole page, whatever its size. A
 * user-scoped key lists only its own user.
 */
@inject()
export class UserDirectoryService {
  constructor(
    protected users: UserService,
    protected local: LocalTokenStore
  ) {}

  async list(caller: Pick<ApiKeyIdentity, 'userExternalId'>, page: PageRequest): Promise<Page<UserDirectoryEntry>> {
    const query = User.query().orderBy('id', 'asc').limit(page.limit + 1)
    if (caller.userExternalId !== null) query.where('externalId', caller.userExternalId)
    if (page.after !== null) query.where('id', '>', page.after)
    const { rows, next } = toPage(await query, page.limit)
    return { rows: await this.describe(rows), next }
  }

  async find(externalId: string): Promise<UserDirectoryEntry> {
    const user = await this.users.findOrFail(externalId)
    const [entry] = await this.describe([user])
    return entry
  }

  protected async describe(users: User[]): Promise<UserDirectoryEntry[]> {
    if (users.length === 0) return []
    const ids = users.map((user) => user.id)
    const local = await this.local.read()
    const stats = await this.tableStats(ids)
    const latest = db.from('sync_runs').whereIn('user_id', ids).groupBy('user_id').max('id as id')
    const runs = new Map((await SyncRun.query().whereIn('id', latest)).map((run) => [run.userId, run]))
    return users.map((user) => {
      const perType = DATA_TYPES.map((type) => [type.key, stats.get(`${user.id}:${type.key}`)] as const)
      const firsts = perType.map(([, s]) => s?.first).filter((d): d is string => !!d).sort()
      const lasts = perType.map(([, s]) => s?.last).filter((d): d is string => !!d).sort()
      const hasLocalToken = !!local && (local.polarUserId === user.polarUserId || local.polarUserId === user.externalId)
      const hasToken = user.providerTokenEncrypted !== null || hasLocalToken
      return {
        user,
        connection: !hasToken ? 'none' : user.connectedAt !== null || hasLocalToken ? 'oauth' : 'token',
        dataDays: Object.fromEntries(perType.map(([key, s]) => [key, s?.days ?? 0])) as Record<DataTypeKey, number>,
        firstDataDate: firsts[0] ?? null,
        lastDataDate: lasts[lasts.length - 1] ?? null,
        lastRun: runs.get(user.id) ?? null,
      }
    })
  }

  /** Per user and type: distinct dates, first and last date (one grouped query per type). */
  protected async tableStats(userIds: number[]): Promise<Map<string, TableStats>> {
    const stats = new Map<string, TableStats>()
    for (const type of DATA_TYPES) {
      const rows = (await db
        .from(type.table)
        .whereIn('user_id', userIds)
        .groupBy('user_id')
        .select('user_id')
        .countDistinct(`${type.dateColumn} as days`)
        .min(`${type.dateColumn} as first`)
        .max(`${type.dateColumn} as last`)) as Array<{ user_id: number; days: unknown; first: unknown; last: unknown }>
      for (const row of rows) {
        stats.set(`${row.user_id}:${type.key}`, {
          days: Number(row.days),
          first: row.first === null ? null : String(row.first),
          last: row.last === null ? null : String(row.last),
        })
      }
    }
    return stats
  }
}
