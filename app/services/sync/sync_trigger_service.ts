import { inject } from '@adonisjs/core'
import ProviderRateLimitedException from '#exceptions/provider_rate_limited_exception'
import ProviderTokenMissingException from '#exceptions/provider_token_missing_exception'
import SyncFailedException from '#exceptions/sync_failed_exception'
import { UserService } from '#services/user_service'
import type { ApiKeyIdentity } from '#services/auth/api_key_service'
import type { SyncOutcome } from '#services/sync/sync_engine'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { ManualSyncGuardService } from '#services/sync/manual_sync_guard_service'
import { UserSyncService, defaultSyncDays } from '#services/sync/user_sync_service'
import { SyncRunService } from '#services/sync/sync_run_service'
import SyncUserJob from '#jobs/sync_user_job'
import type SyncRun from '#models/sync_run'
import encryption from '@adonisjs/core/services/encryption'

/** Largest `days` of any sync trigger. */
export const MAX_TRIGGER_DAYS = 365

/**
 * Largest `days` a caller may trigger: SYNC_DAYS (28; about what Polar keeps) for a user-scoped API
 * key, so one user's key cannot spend the installation's Polar budget on year-long windows;
 * MAX_TRIGGER_DAYS for service keys and open access (`node ace sync --days` is not limited either).
 */
export function maxTriggerDays(caller: Pick<ApiKeyIdentity, 'userExternalId'>): number {
  if (caller.userExternalId === null) return MAX_TRIGGER_DAYS
  return Math.min(MAX_TRIGGER_DAYS, Math.max(1, Math.floor(defaultSyncDays())))
}

/**
 * `POST /users/{user_id}/sync/trigger` (DESIGN §4). Creates the user on first sight, syncs inline
 * with the header's token under the per-user lock and maps the outcome: success or partial are
 * returned; every type failed → 502; Polar rate limit → 503 with Retry-After. Before any of this,
 * ManualSyncGuardService may refuse the sync (503 budget reserve, 429 per-user cooldown).
 *
 * Token policy: the header's token drives this sync. It is stored (encrypted) only when the user has
 * no stored token yet and the sync worked, so a SaaS user onboarded through the trigger is also synced in the
 * background; a stored token (OAuth connect) is never replaced by a header value.
 */
@inject()
export class SyncTriggerService {
  constructor(
    protected users: UserService,
    protected tokens: ProviderTokenService,
    protected userSync: UserSyncService,
    protected guard: ManualSyncGuardService,
    protected runs: SyncRunService
  ) {}

  async trigger(externalId: string, token: string | undefined, days: number | undefined): Promise<SyncOutcome> {
    if (!token || token.trim() === '') throw new ProviderTokenMissingException()
    await this.guard.admit(externalId)
    const user = await this.users.findOrCreate(externalId)
    const outcome = await this.userSync.sync(user, { token: token.trim(), days, trigger: 'api' })
    if ((outcome.status === 'success' || outcome.status === 'partial') && !user.providerTokenEncrypted) {
      await this.tokens.store(user, token.trim())
    }
    if (outcome.status === 'rate_limited') {
      throw new ProviderRateLimitedException(outcome.userId, outcome.retryAfterSeconds ?? 60, outcome.results)
    }
    if (outcome.status === 'failed') throw new SyncFailedException(outcome.userId, outcome.errors as Record<string, string>)
    return outcome
  }

  /**
   * `?wait=false`: the same admission (token, per-user lock, budget reserve, cooldown), then a
   * `queued` run and a SyncUserJob that syncs it with the header's token (in the job payload
   * encrypted with APP_KEY, as stored tokens are). Returns the run at once; the job stores the token
   * like the synchronous trigger does (only for a user without one, after a sync that worked).
   */
  async enqueue(externalId: string, token: string | undefined, days: number | undefined): Promise<SyncRun> {
    if (!token || token.trim() === '') throw new ProviderTokenMissingException()
    await this.guard.admit(externalId)
    const user = await this.users.findOrCreate(externalId)
    const run = await this.runs.createQueued(user, days ?? defaultSyncDays(), 'api')
    const { jobId } = await SyncUserJob.dispatch({
      userId: user.id,
      trigger: 'api',
      ...(days ? { days } : {}),
      runId: run.id,
      tokenEncrypted: encryption.encrypt(token.trim()),
    }).run()
    run.jobId = jobId
    await run.save()
    return run
  }
}
