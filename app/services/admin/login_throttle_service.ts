import { createHash } from 'node:crypto'
import { isIPv6 } from 'node:net'
import limiter from '@adonisjs/limiter/services/main'
import { RateLimitService, limiterFor } from '#services/rate_limit_service'
import { inject } from '@adonisjs/core'

/** Attempts per address (any account) in the window, counted for every attempt. */
export const LOGIN_IP_POLICY = { bucket: 'admin-login-ip', requests: 20, window: '15 minutes' }
/** Failures of one account from one address that cost no wait (typos). */
export const LOGIN_FREE_FAILURES = 3
/** The wait after the first failure beyond the free ones; it doubles with each further failure. */
export const LOGIN_BACKOFF_BASE_SECONDS = 1
/** The longest wait between two attempts of one account from one address. */
export const LOGIN_BACKOFF_MAX_SECONDS = 15 * 60
/** How long the failures of an (account, address) pair are remembered, from its first failure. */
export const LOGIN_FAILURE_MEMORY = '24 hours'

/** Setup attempts per IP (the token is unguessable; this only bounds the noise). */
export const SETUP_IP_POLICY = { bucket: 'admin-setup-ip', requests: 10, window: '15 minutes' }

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number }

/**
 * Seconds an (account, address) pair waits after its `failures`-th consecutive failure:
 * none for the first LOGIN_FREE_FAILURES, then 1, 2, 4 … capped at 15 minutes.
 */
export function loginBackoffSeconds(failures: number): number {
  if (failures <= LOGIN_FREE_FAILURES) return 0
  return Math.min(LOGIN_BACKOFF_MAX_SECONDS, LOGIN_BACKOFF_BASE_SECONDS * 2 ** (failures - LOGIN_FREE_FAILURES - 1))
}

/**
 * The address a throttle counts: an IPv4 address as it is (also when IPv4-mapped),
 * an IPv6 address by its /64, since one subscriber usually holds a whole /64.
 */
export function throttleAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)
  if (mapped) return mapped[1]
  const bare = ip.split('%')[0]
  if (!isIPv6(bare)) return ip
  const [head, tail] = bare.includes('::') ? bare.split('::') : [bare, undefined]
  const headParts = head ? head.split(':') : []
  const tailParts = tail ? tail.split(':') : []
  // An embedded IPv4 address (the last part) fills two 16-bit groups.
  const groupsOf = (parts: string[]) => parts.reduce((n, part) => n + (part.includes('.') ? 2 : 1), 0)
  const zeros = tail === undefined ? 0 : 8 - groupsOf(headParts) - groupsOf(tailParts)
  const groups = [...headParts, ...Array(zeros).fill('0'), ...tailParts]
  return `${groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16)).join(':')}::/64`
}

/**
 * Login throttling (DESIGN §7), with no account-wide lock: a fresh address with the
 * right password always gets in. Every attempt counts against its address
 * (LOGIN_IP_POLICY, any account); failures count per (account, address) pair and,
 * beyond a few free ones, make that pair wait 1 s, 2 s, 4 s … up to 15 minutes before
 * its next attempt is even checked. A success clears the pair. Counters and waits live
 * in the database or Redis through @adonisjs/limiter, shared by all processes. There is
 * deliberately no account-wide ceiling: it would let anyone lock the admins out, while
 * passwords of at least 12 characters keep guesses spread over many addresses hopeless.
 */
@inject()
export class LoginThrottleService {
  constructor(protected rateLimits: RateLimitService) {}

  /** Consecutive failures of a pair, remembered LOGIN_FAILURE_MEMORY from the first. */
  protected failures() {
    return limiter.use({ requests: 1000, duration: LOGIN_FAILURE_MEMORY })
  }

  /** The current wait of a pair: a key blocked for the backoff of its last failure. */
  protected waits() {
    return limiter.use({ requests: 1, duration: LOGIN_BACKOFF_MAX_SECONDS })
  }

  /** A fixed-length key for the pair (emails can be 254 characters; the store's key is 255). */
  protected pairKey(ip: string, email: string) {
    const pair = `${email.trim().toLowerCase()}\n${throttleAddress(ip)}`
    return createHash('sha256').update(pair).digest('hex').slice(0, 40)
  }

  /** Counts the attempt against the address and checks the pair's wait; never throws for throttling. */
  async check(ip: string, email: string): Promise<ThrottleVerdict> {
    try {
      await this.rateLimits.hit(LOGIN_IP_POLICY, throttleAddress(ip))
    } catch (error: any) {
      if (error?.status !== 429) throw error
      return { allowed: false, retryAfterSeconds: Number(error.headers?.['Retry-After'] ?? 60) }
    }
    const wait = await this.waits().availableIn(`admin-login-wait:${this.pairKey(ip, email)}`)
    if (wait > 0) return { allowed: false, retryAfterSeconds: wait }
    return { allowed: true }
  }

  /** Counts a setup attempt against the IP; false once the budget is spent. */
  async checkSetup(ip: string): Promise<boolean> {
    try {
      await this.rateLimits.hit(SETUP_IP_POLICY, throttleAddress(ip))
      return true
    } catch (error: any) {
      if (error?.status !== 429) throw error
      return false
    }
  }

  /** Forgets the counters of an address and its pairs with the accounts (tests, and an operator's manual unlock). */
  async reset(ip: string, emails: string[] = []) {
    for (const policy of [LOGIN_IP_POLICY, SETUP_IP_POLICY]) {
      const bucket = limiterFor(policy)
      await bucket.delete(`${policy.bucket}:${throttleAddress(ip)}`)
      bucket.deleteInMemoryBlockedKeys()
    }
    for (const email of emails) await this.recordSuccess(ip, email)
  }

  /** Counts a failure of the pair and starts its wait; returns that wait in seconds (0 while free). */
  async recordFailure(ip: string, email: string): Promise<number> {
    const key = this.pairKey(ip, email)
    const { consumed } = await this.failures().increment(`admin-login-failures:${key}`)
    const wait = loginBackoffSeconds(consumed)
    if (wait > 0) await this.waits().block(`admin-login-wait:${key}`, wait)
    return wait
  }

  /** Clears the failures and the wait of the pair. */
  async recordSuccess(ip: string, email: string) {
    const key = this.pairKey(ip, email)
    await this.failures().delete(`admin-login-failures:${key}`)
    await this.waits().delete(`admin-login-wait:${key}`)
  }
}
