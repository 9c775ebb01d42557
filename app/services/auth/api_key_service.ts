import { createHash, randomBytes } from 'node:crypto'
import { DateTime } from 'luxon'
import ApiKey from '#models/api_key'
import User from '#models/user'
import InvalidApiKeyException from '#exceptions/invalid_api_key_exception'
import UnknownUserException from '#exceptions/unknown_user_exception'

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

export const hashApiKey = (plain: string) => createHash('sha256').update(plain).digest('hex')

/**
 * API keys (DESIGN §4): 256 random bits, shown once, stored as SHA-256 with
 * a visible prefix, optional user scope, last-used time and revocation.
 */
export class ApiKeyService {
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
    apiKey.revokedAt = DateTime.now()
    await apiKey.save()
    return true
  }

  /** True when at least one key was ever created (revoked keys still close open mode). */
  async anyExists(): Promise<boolean> {
    const row = await ApiKey.query().select('id').first()
    return row !== null
  }

  /** Resolves a presented key or throws InvalidApiKeyException (401). */
  async authenticate(plain: string): Promise<ApiKeyIdentity> {
    const apiKey = await ApiKey.query()
      .where('keyHash', hashApiKey(plain))
      .whereNull('revokedAt')
      .preload('user')
      .first()
    if (!apiKey) throw new InvalidApiKeyException('The API key is invalid or revoked.')
    await this.touch(apiKey)
    return { id: apiKey.id, name: apiKey.name, userExternalId: apiKey.user?.externalId ?? null }
  }

  protected async touch(apiKey: ApiKey) {
    const last = apiKey.lastUsedAt?.toMillis() ?? 0
    if (Date.now() - last < TOUCH_INTERVAL_MS) return
    apiKey.lastUsedAt = DateTime.now()
    await apiKey.save()
  }
}
