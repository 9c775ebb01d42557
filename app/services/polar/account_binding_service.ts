import logger from '@adonisjs/core/services/logger'
import User from '#models/user'
import ProviderAccountMismatchException from '#exceptions/provider_account_mismatch_exception'

/**
 * One HRVault user is one Polar account. The binding (`users.polar_user_id`) is recorded when the
 * account is first known (OAuth `x_user_id`, or the `polar_user` URL a synced payload carries) and
 * checked before a sync writes anything, so a token of another account can never overwrite a
 * user's history. Webhook events are routed to users by the same binding.
 */
export class AccountBindingService {
  /**
   * Checks the Polar accounts a sync's answers named against the user's binding, and binds a user
   * that has none yet. Throws ProviderAccountMismatchException (409) when the data belongs to
   * another account, to several accounts, or to an account another user is bound to.
   */
  async confirm(user: User, accountIds: ReadonlySet<string>): Promise<void> {
    if (accountIds.size === 0) return
    if (accountIds.size > 1) {
      throw new ProviderAccountMismatchException(
        `Polar answered with data of ${accountIds.size} different accounts for one token; nothing was stored.`
      )
    }
    const [accountId] = accountIds
    if (user.polarUserId !== null && user.polarUserId !== undefined) {
      if (user.polarUserId === accountId) return
      throw new ProviderAccountMismatchException(
        `User "${user.externalId}" is bound to another Polar account than the one this token belongs to; nothing was stored.`
      )
    }

    const holder = await User.query().where('polarUserId', accountId).whereNot('id', user.id).first()
    if (holder) {
      throw new ProviderAccountMismatchException(
        `This token's Polar account is already bound to another user; nothing was stored for "${user.externalId}".`
      )
    }
    user.polarUserId = accountId
    try {
      await user.save()
    } catch (error) {
      // Another process bound the same account to another user in the meantime.
      user.polarUserId = null
      if (isUniqueViolation(error)) {
        throw new ProviderAccountMismatchException(
          `This token's Polar account is already bound to another user; nothing was stored for "${user.externalId}".`
        )
      }
      throw error
    }
    logger.info({ userId: user.id }, 'user bound to its Polar account')
  }
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE'
}
