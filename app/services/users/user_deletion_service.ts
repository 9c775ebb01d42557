import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import lock from '@adonisjs/lock/services/main'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import AuditLog from '#models/audit_log'
import type User from '#models/user'
import SyncInProgressException from '#exceptions/sync_in_progress_exception'
import UnknownUserException from '#exceptions/unknown_user_exception'
import { ApiKeyService } from '#services/auth/api_key_service'
import { DatabaseCatalog } from '#services/database_catalog'
import { PolarError } from '#services/polar/errors/polar_error'
import { LocalTokenStore } from '#services/polar/local_token_store'
import { PolarClientFactory } from '#services/polar/polar_client_factory'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { ResponseCache } from '#services/response_cache'
import { userSyncLockKey } from '#services/sync/user_sync_service'
import { UserService } from '#services/user_service'
import { forgetQueuedWork } from '#services/users/queued_work'
import { SLEEP_LINES_TABLE, SLEEP_MONTHS_TABLE } from '#services/records/sleep_lines'

/** Who asked for an erasure (never a key or token, only its name). */
export interface DeletionActor {
  /** `api_key` (API), `console` (`node ace user:delete`), `admin` (admin session). */
  type: 'api_key' | 'console' | 'admin'
  /** The API key's name, the admin's e-mail, `node ace`. */
  name: string
}

/** What Polar answered to `DELETE /v3/users/{id}`. A failure never blocks the erasure. */
export interface PolarDeregistration {
  /** `deregistered` (204), `not_registered` (404), `failed` (token revoked, consent, upstream), `skipped` (no token or id). */
  outcome: 'deregistered' | 'not_registered' | 'failed' | 'skipped'
  /** Polar's HTTP status, null when no call was made or no answer came. */
  providerStatus: number | null
  detail: string | null
}

/** What an erasure removed: rows per table (the `users` row included), Polar's answer, the audit entry. */
export interface UserDeletionReport {
  userId: string
  tables: Record<string, number>
  polar: PolarDeregistration
  auditId: number
}

/** Tables that keep their rows when a user is erased (the audit trail of the erasure itself). */
export const ERASURE_KEEPS_TABLES = ['audit_logs'] as const

const affected = (result: unknown) => (Array.isArray(result) ? Number(result[0] ?? 0) : Number(result ?? 0))

/**
 * GDPR erasure of one user (issue 19). The user is de-registered at Polar with their own token
 * (`DELETE /v3/users/{polar-user-id}`, which also revokes the token; a refusal or an outage is
 * recorded, never blocking), then every row of theirs is deleted in one transaction: every table with
 * a `user_id` column or a foreign key to `users`, read from the database's own catalogue so a table
 * added later is covered without a change here (ERASURE_KEEPS_TABLES excepted), their queued and
 * failed jobs and webhook bookkeeping, and last the `users` row with its stored provider token. The
 * same transaction writes an audit entry that names the user, who asked, the row counts and Polar's
 * answer, and no health data. The user's sync lock is held throughout, so a sync cannot write rows
 * behind it (SyncInProgressException, 409, while one runs).
 */
@inject()
export class UserDeletionService {
  constructor(
    protected users: UserService,
    protected tokens: ProviderTokenService,
    protected clients: PolarClientFactory,
    protected local: LocalTokenStore,
    protected catalog: DatabaseCatalog,
    protected cache: ResponseCache
  ) {}

  /** Erases `externalId`; UnknownUserException (404) when there is no such user (any more). */
  async delete(externalId: string, actor: DeletionActor): Promise<UserDeletionReport> {
    const user = await this.users.findOrFail(externalId)
    const syncLock = lock.createLock(userSyncLockKey(user.id), '5m')
    if (!(await syncLock.acquireImmediately())) throw new SyncInProgressException(user.externalId)
    try {
      const localToken = await this.local.read()
      const polar = await this.deregister(user, localToken?.polarUserId ?? null)
      const report = await db.transaction((trx) => this.wipe(trx, user, polar, actor))
      if (localToken && [user.polarUserId, user.externalId].includes(localToken.polarUserId)) await this.local.remove()
      // Caches of this process forget the user now (other processes: their keys name a user that is gone).
      this.cache.forgetUser(user.id)
      ApiKeyService.clearCache()
      logger.info({ userId: user.id, auditId: report.auditId, polar: polar.outcome }, 'user erased')
      return report
    } finally {
      await syncLock.release()
    }
  }

  /**
   * Every table the erasure empties for a user, children before the tables they reference; the
   * rendered sleep lines and months first (deleting a night drops its line and month by trigger,
   * which the counts of deleted rows would then miss).
   */
  async tables(client: TransactionClientContract | undefined = undefined) {
    const tables = await this.catalog.userTables(ERASURE_KEEPS_TABLES, client)
    const rendered = (table: string) => table === SLEEP_LINES_TABLE || table === SLEEP_MONTHS_TABLE
    return [...tables.filter((t) => rendered(t.table)), ...tables.filter((t) => !rendered(t.table))]
  }

  /** `DELETE /v3/users/{id}` with the user's token; every outcome is a value, never an exception. */
  protected async deregister(user: User, localPolarUserId: string | null): Promise<PolarDeregistration> {
    let token: string | null
    try {
      token = await this.tokens.tokenFor(user)
    } catch {
      token = null
    }
    const polarUserId =
      user.polarUserId ?? (localPolarUserId !== null && localPolarUserId === user.externalId ? localPolarUserId : null)
    if (!token) return { outcome: 'skipped', providerStatus: null, detail: 'no Polar token is stored for the user' }
    if (!polarUserId) return { outcome: 'skipped', providerStatus: null, detail: "the user's Polar user id is unknown" }
    try {
      const wasRegistered = await this.clients.accessLink(token).deregisterUser(polarUserId)
      return wasRegistered
        ? { outcome: 'deregistered', providerStatus: 204, detail: null }
        : { outcome: 'not_registered', providerStatus: 404, detail: 'Polar did not know the user (already de-registered)' }
    } catch (error) {
      if (error instanceof PolarError) return { outcome: 'failed', providerStatus: error.providerStatus, detail: error.message }
      logger.warn({ err: error, userId: user.id }, 'Polar de-registration failed')
      return { outcome: 'failed', providerStatus: null, detail: 'the de-registration call failed' }
    }
  }

  protected async wipe(
    trx: TransactionClientContract,
    user: User,
    polar: PolarDeregistration,
    actor: DeletionActor
  ): Promise<UserDeletionReport> {
    const counts: Record<string, number> = {}
    for (const { table, column } of await this.tables(trx)) {
      counts[table] = affected(await trx.from(table).where(column, user.id).delete())
    }
    Object.assign(counts, await forgetQueuedWork(trx, user, await this.catalog.tables(trx)))
    const removed = affected(await trx.from('users').where('id', user.id).delete())
    if (removed !== 1) throw new UnknownUserException(user.externalId)
    counts.users = removed

    const audit = await AuditLog.create(
      {
        actorType: actor.type,
        actor: actor.name.slice(0, 120),
        action: 'user.delete',
        target: user.externalId,
        outcome: 'success',
        details: JSON.stringify({
          user_id: user.externalId,
          requested_by: { type: actor.type, name: actor.name },
          tables: counts,
          rows_deleted: Object.values(counts).reduce((sum, n) => sum + n, 0),
          polar_deregistration: { outcome: polar.outcome, provider_status: polar.providerStatus, detail: polar.detail },
        }),
      },
      { client: trx }
    )
    return { userId: user.externalId, tables: counts, polar, auditId: Number(audit.id) }
  }
}
