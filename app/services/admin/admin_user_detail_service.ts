import { inject } from '@adonisjs/core'
import type ApiKey from '#models/api_key'
import type SyncRun from '#models/sync_run'
import { AdminApiKeysService } from '#services/admin/admin_api_keys_service'
import { AdminUsersService, type AdminUserSummary } from '#services/admin/admin_users_service'
import { UserCoverageService, type UserCoverage } from '#services/admin/user_coverage_service'
import { pageRequest } from '#services/api/pagination'
import { SyncRunService } from '#services/sync/sync_run_service'
import { UserService } from '#services/user_service'

/** How many of the user's latest sync runs the page lists. */
export const USER_PAGE_RUNS = 20

/** Everything the per-user admin page shows. */
export interface AdminUserDetail {
  summary: AdminUserSummary
  coverage: UserCoverage
  runs: SyncRun[]
  keys: ApiKey[]
}

/**
 * The per-user admin page (/admin/users/:user): the users page's row of the user, the data
 * coverage heat-map, the latest sync runs (the API's SyncRunService) and the user's API keys.
 * UnknownUserException (404) for a user that does not exist.
 */
@inject()
export class AdminUserDetailService {
  constructor(
    protected users: UserService,
    protected summaries: AdminUsersService,
    protected coverage: UserCoverageService,
    protected runs: SyncRunService,
    protected keys: AdminApiKeysService
  ) {}

  async show(externalId: string): Promise<AdminUserDetail> {
    const user = await this.users.findOrFail(externalId)
    const summary = await this.summaries.summary(user)
    const coverage = await this.coverage.forUser(user)
    const { rows: runs } = await this.runs.list(user, pageRequest({ limit: USER_PAGE_RUNS }))
    const keys = await this.keys.listForUser(user)
    return { summary, coverage, runs, keys }
  }

  /** Sets (or, with null or blank, removes) the user's display name. */
  async rename(externalId: string, displayName: string | null) {
    return this.summaries.rename(await this.users.findOrFail(externalId), displayName)
  }

  /** Revokes one of the user's keys; false when the user has no such active key. */
  async revokeKey(externalId: string, prefix: string): Promise<boolean> {
    return this.keys.revokeForUser(await this.users.findOrFail(externalId), prefix)
  }
}
