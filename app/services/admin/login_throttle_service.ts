import limiter from '@adonisjs/limiter/services/main'
import { RateLimitService, limiterFor } from '#services/rate_limit_service'
import { inject } from '@adonisjs/core'

/** Attempts per IP (any account) in the window, counted for every attempt. */
export const LOGIN_IP_POLICY = { bucket: 'admin-login-ip', requests: 20, window: '15 minutes' }
/** Failed attempts per account in the window; a success clears the count. */
export const LOGIN_ACCOUNT_FAILURES = 5
export const LOGIN_ACCOUNT_WINDOW = '15 minutes'

/** Setup attempts per IP (the token is unguessable; this only bounds the noise). */
export const SETUP_IP_POLICY = { bucket: 'admin-setup-ip', requests: 10, window: '15 minutes' }

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number }

/**
 * Login throttling (DESIGN §7): per IP through the shared rate-limit store,
 * and per account on failures only, so a locked-out attacker cannot burn a
 * legitimate user's budget from another address beyond the failure limit.
 * Counters live in the database or Redis, shared by all processes.
 */
@inject()
export class LoginThrottleService {
  constructor(protected rateLimits: RateLimitService) {}

  protected accountLimiter() {
    return limiter.use({ requests: LOGIN_ACCOUNT_FAILURES, duration: LOGIN_ACCOUNT_WINDOW })
  }

  protected accountKey(email: string) {
    return `admin-login-account:${email.trim().toLowerCase()}`
  }

  /** Counts the attempt against the IP and checks the account; never throws for throttling. */
  async check(ip: string, email: string): Promise<ThrottleVerdict> {
    try {
      await this.rateLimits.hit(LOGIN_IP_POLICY, ip)
    } catch (error: any) {
      if (error?.status !== 429) throw error
      return { allowed: false, retryAfterSeconds: Number(error.headers?.['Retry-After'] ?? 60) }
    }
    const account = this.accountLimiter()
    const key = this.accountKey(email)
    const remaining = await account.remaining(key)
    if (remaining <= 0) {
      return { allowed: false, retryAfterSeconds: Math.max(1, await account.availableIn(key)) }
    }
    return { allowed: true }
  }

  /** Counts a setup attempt against the IP; false once the budget is spent. */
  async checkSetup(ip: string): Promise<boolean> {
    try {
      await this.rateLimits.hit(SETUP_IP_POLICY, ip)
      return true
    } catch (error: any) {
      if (error?.status !== 429) throw error
      return false
    }
  }

  /** Forgets the counters of an address and an account (tests, and an operator's manual unlock). */
  async reset(ip: string, emails: string[] = []) {
    for (const policy of [LOGIN_IP_POLICY, SETUP_IP_POLICY]) {
      const bucket = limiterFor(policy)
      await bucket.delete(`${policy.bucket}:${ip}`)
      bucket.deleteInMemoryBlockedKeys()
    }
    for (const email of emails) await this.accountLimiter().delete(this.accountKey(email))
  }

  async recordFailure(email: string) {
    await this.accountLimiter().increment(this.accountKey(email))
  }

  async recordSuccess(email: string) {
    await this.accountLimiter().delete(this.accountKey(email))
  }
}
