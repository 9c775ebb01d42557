import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import { inject } from '@adonisjs/core'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { defaultSyncDays } from '#services/sync/user_sync_service'
import { SyncSchedulerService } from '#services/sync/sync_scheduler_service'

/** One user's line in `sync:status`. */
export interface UserSyncStatus {
  externalId: string
  connected: boolean
  lastSyncedAt: string | null
  lastRun: {
    status: string
    trigger: string
    startedAt: string
    finishedAt: string | null
    records: number
    providerCalls: number
    errors: string[]
  } | null
}

/** Background sync settings plus every user's connection state and latest sync run. */
@inject()
export class SyncStatusService {
  constructor(
    protected tokens: ProviderTokenService,
    protected scheduler: SyncSchedulerService
  ) {}

  async status() {
    const connected = new Set((await this.tokens.connectedUsers()).map((u) => u.id))
    const users = await User.query().orderBy('externalId')
    const latestIds = db.from('sync_runs').max('id as id').groupBy('user_id')
    const runs = await SyncRun.query().whereIn('id', latestIds)
    const byUser = new Map(runs.map((r) => [r.userId, r]))
    return {
      enabled: env.get('SYNC_ENABLED') ?? true,
      intervalMinutes: (await this.scheduler.intervalMs()) / 60_000,
      days: defaultSyncDays(),
      role: env.get('HRVAULT_ROLE') ?? 'all',
      users: users.map((user): UserSyncStatus => {
        const run = byUser.get(user.id)
        const results = run?.results ? (JSON.parse(run.results) as Record<string, number>) : {}
        return {
          externalId: user.externalId,
          connected: connected.has(user.id),
          lastSyncedAt: user.lastSyncedAt?.toISO() ?? null,
          lastRun: run
            ? {
                status: run.status,
                trigger: run.trigger,
                startedAt: run.startedAt.toISO()!,
                finishedAt: run.finishedAt?.toISO() ?? null,
                records: Object.values(results).reduce((a, b) => a + b, 0),
                providerCalls: run.providerCalls,
                errors: run.errors ? Object.keys(JSON.parse(run.errors)) : [],
              }
            : null,
        }
      }),
    }
  }
}
