import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import SyncRun from '#models/sync_run'

/** Data tables shown per user, in display order (label → table). */
export const RECORD_TABLES = {
  sleep: 'sleep_records',
  nightly_recharge: 'nightly_recharges',
  activity: 'daily_activities',
  exercises: 'exercises',
  cardio_load: 'cardio_loads',
  heart_rate: 'heart_rate_days',
  sleepwise_alertness: 'sleepwise_alertness',
  sleepwise_bedtime: 'sleepwise_bedtimes',
  spo2: 'spo2_tests',
  ecg: 'ecg_tests',
  body_temperature: 'body_temperatures',
  skin_temperature: 'skin_temperatures',
} as const

export type RecordType = keyof typeof RECORD_TABLES

export interface SyncRunView {
  id: number
  status: string
  trigger: string
  days: number
  started_at: string
  finished_at: string | null
  results: Record<string, unknown> | null
  errors: Record<string, string> | null
  progress: Record<string, unknown> | null
}

export interface AdminUserRow {
  user_id: string
  connected: boolean
  active: boolean
  created_at: string
  last_synced_at: string | null
  counts: Record<RecordType, number>
  last_run: SyncRunView | null
}

const parseJson = (value: string | null): any => {
  if (value === null || value === undefined) return null
  try {
    return JSON.parse(value)
  } catch {
    return null
  }
}

const iso = (value: unknown): string | null => {
  if (value === null || value === undefined) return null
  if (typeof (value as any).toISO === 'function') return (value as any).toISO()
  return new Date(value as string).toISOString()
}

export function syncRunView(run: SyncRun): SyncRunView {
  return {
    id: run.id,
    status: run.status,
    trigger: run.trigger,
    days: run.days,
    started_at: iso(run.startedAt)!,
    finished_at: iso(run.finishedAt),
    results: parseJson(run.results),
    errors: parseJson(run.errors),
    progress: parseJson(run.progress),
  }
}

/** The users page: every user with connection state, last sync and stored records per type. */
export class AdminUsersService {
  async list(): Promise<AdminUserRow[]> {
    const users = await User.query().orderBy('externalId', 'asc')
    if (users.length === 0) return []
    const counts = await this.countsByUser()
    const lastRuns = await this.lastRuns(users.map((user) => user.id))
    return users.map((user) => ({
      user_id: user.externalId,
      connected: user.isConnected,
      active: Boolean(user.isActive),
      created_at: iso(user.createdAt)!,
      last_synced_at: iso(user.lastSyncedAt),
      counts: Object.fromEntries(
        Object.keys(RECORD_TABLES).map((type) => [type, counts.get(`${user.id}:${type}`) ?? 0])
      ) as Record<RecordType, number>,
      last_run: lastRuns.get(user.id) ?? null,
    }))
  }

  async externalIds(): Promise<string[]> {
    const users = await User.query().select('externalId').orderBy('externalId', 'asc')
    return users.map((user) => user.externalId)
  }

  async findByExternalId(externalId: string) {
    return User.findBy('externalId', externalId)
  }

  /** One grouped count per table (12 queries whatever the number of users). */
  protected async countsByUser() {
    const counts = new Map<string, number>()
    await Promise.all(
      Object.entries(RECORD_TABLES).map(async ([type, table]) => {
        const rows = (await db.from(table).select('user_id').count('* as n').groupBy('user_id')) as any[]
        for (const row of rows) counts.set(`${row.user_id}:${type}`, Number(row.n))
      })
    )
    return counts
  }

  protected async lastRuns(userIds: number[]) {
    const latest = db.from('sync_runs').whereIn('user_id', userIds).groupBy('user_id').max('id as id')
    const runs = await SyncRun.query().whereIn('id', latest)
    return new Map(runs.map((run) => [run.userId, syncRunView(run)]))
  }
}
