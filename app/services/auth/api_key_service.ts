import { hash, randomBytes } from 'node:crypto'
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import ApiKey from '#models/api_key'
import User from '#models/user'
import InvalidApiKeyException from '#exceptions/invalid_api_key_exception'
import UnknownUserException from '#exceptions/unknown_user_exception'
import { ClockService } from '#services/clock_service'

/** What an authenticated request knows about its key (null scope = service key). */
export interface ApiKeyIdentity {
  id: number | null
  name: string
  /** External id of the only user this key may touch; null for service keys. */
  userExternalId: string | null
}

/** The identity used when the API is open (no key exists, loopback only). */
export const OPEN_ACCESS: ApiKeyIdentity = { id: null, name: 'open-loopback', userExternalId: null }

const KEY_PREFIX = 'hrv_'
/** Visible part: `hrv_` + 8 chars, enough to identify a key in lists and revocations. */
const VISIBLE_LENGTH = 12
/** last_used_at is written at most once a minute per key, not on every request. */
const TOUCH_INTERVAL_MS = 60_000
/**
 * Authenticated identities are remembered in this process for a few seconds,
 * keyed by the key hash, so a burst of requests costs one lookup. A revocation
 * in this process clears the cache at once; one made by another process (the
 * `api-key` command, another web process) takes effect within this TTL.
 */
export const IDENTITY_CACHE_TTL_MS = 5_000
const IDENTITY_CACHE_MAX = 1_000

interface CachedIdentity {
  identity: ApiKeyIdentity
  expiresAt: number
  lastUsedAt: number
}

const identityCache = new Map<string, CachedIdentity>()

/** SHA-256 hex of a key (one-shot `crypto.hash`: a third of a Hash object's cost, on every request). */
export const hashApiKey = (plain: string) => hash('sha256', plain, 'hex')

/**
 * API keys (DESIGN §4): 256 random bits, shown once, stored as SHA-256 with
 * a visible prefix, optional user scope, last-used time and revocation.
 */
@inject()
export class ApiKeyService {
  constructor(protected clock: ClockService) {}

  /** Creates a key and returns the only copy of its plain value. */
  async create(name: string, userExternalId?: string | null) {
    let userId: number | null = null
    if (userExternalId) {
      const user = await User.findBy('externalId', userExternalId)
      if (!user) throw new UnknownUserException(userExternalId)
      userId = user.id
    }
    const plain = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`
    const apiKey = await ApiKey.create({
      name,
      userId,
      prefix: plain.slice(0, VISIBLE_LENGTH),
      keyHash: hashApiKey(plain),
    })
    return { apiKey, plain }
  }

  /** Every key, newest first, with its user preloaded. */
  async list() {
    return ApiKey.query().preload('user').orderBy('id', 'desc')
  }

  /** Revokes the key with this visible prefix; false when none is active. */
  async revoke(prefix: string): Promise<boolean> {
    const apiKey = await ApiKey.query().where('prefix', prefix).whereNull('revokedAt').first()
    if (!apiKey) return false
    apiKey.revokedAt = this.clock.now()
    await apiKey.save()
    identityCache.clear()
    return true
  }

  /** True when at least one key was ever created (revoked keys still close open mode). */
  async anyExists(): Promise<boolean> {
    const row = await ApiKey.query().select('id').first()
    return row !== null
  }

  /**
   * Resolves a presented key or throws InvalidApiKeyException (401): one
   * query for the key and its user scope, then cached for
   * IDENTITY_CACHE_TTL_MS.
   */
  async authenticate(plain: string): Promise<ApiKeyIdentity> {
    const keyHash = hashApiKey(plain)
    const now = Date.now()
    const cached = identityCache.get(keyHash)
    if (cached && cached.expiresAt > now) {
      await this.touch(cached, now)
      return cached.identity
    }
    if (cached) identityCache.delete(keyHash)

    const apiKey = await ApiKey.query()
      .leftJoin('users', 'users.id', 'api_keys.user_id')
      .where('api_keys.key_hash', keyHash)
      .whereNull('api_keys.revoked_at')
      .select('api_keys.*', 'users.external_id as scope_external_id')
      .first()
    if (!apiKey) throw new InvalidApiKeyException('The API key is invalid or revoked.')

    const entry: CachedIdentity = {
      identity: { id: apiKey.id, name: apiKey.name, userExternalId: apiKey.$extras.scope_external_id ?? null },
      expiresAt: now + IDENTITY_CACHE_TTL_MS,
      lastUsedAt: apiKey.lastUsedAt?.toMillis() ?? 0,
    }
    if (identityCache.size >= IDENTITY_CACHE_MAX) identityCache.clear()
    identityCache.set(keyHash, entry)
    await this.touch(entry, now, apiKey)
    return entry.identity
  }

  /**
   * The identity of a key this process authenticated within IDENTITY_CACHE_TTL_MS, when nothing
   * is due for it (no last_used_at write); null otherwise, and `authenticate` then does the full
   * check. Synchronous and static (it reads only this process's cache), for ReadFastPath.
   */
  static recentIdentity(plain: string): ApiKeyIdentity | null {
    const cached = identityCache.get(hashApiKey(plain))
    const now = Date.now()
    if (!cached || cached.expiresAt <= now || now - cached.lastUsedAt >= TOUCH_INTERVAL_MS) return null
    return cached.identity
  }

  /** Forgets every cached identity (revocation, tests). */
  static clearCache() {
    identityCache.clear()
  }

  /** Writes last_used_at at most once a minute per key. */
  protected async touch(entry: CachedIdentity, now: number, loaded?: ApiKey) {
    if (now - entry.lastUsedAt < TOUCH_INTERVAL_MS) return
    entry.lastUsedAt = now
    const apiKey = loaded ?? (await ApiKey.find(entry.identity.id))
    if (!apiKey) return
    apiKey.lastUsedAt = DateTime.fromMillis(now)
    await apiKey.save()
  }
}
