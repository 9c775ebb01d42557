import { BaseTransformer } from '@adonisjs/core/transformers'
import type { AdminUserDetail } from '#services/admin/admin_user_detail_service'
import ApiKeyTransformer from '#transformers/admin/api_key_transformer'
import SyncRunTransformer from '#transformers/admin/sync_run_transformer'
import UserCoverageTransformer from '#transformers/admin/user_coverage_transformer'
import UserTransformer from '#transformers/admin/user_transformer'

/** The per-user page: the user's row of the users page, data coverage, latest sync runs, API keys. */
export default class UserDetailTransformer extends BaseTransformer<AdminUserDetail> {
  toObject() {
    const { summary, coverage, runs, keys } = this.resource
    return {
      user: new UserTransformer(summary).toObject(),
      coverage: new UserCoverageTransformer(coverage).toObject(),
      runs: runs.map((run) => new SyncRunTransformer(run).toObject()),
      keys: keys.map((key) => new ApiKeyTransformer(key).toObject()),
    }
  }
}
