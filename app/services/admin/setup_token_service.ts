import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import AppSetting from '#models/app_setting'
import AdminUser from '#models/admin_user'

/** app_settings key holding the hashes of the currently valid setup tokens. */
export const SETUP_TOKEN_SETTING = 'admin.setup_token_hashes'
/** Several processes may start together; each announces its own token. */
const MAX_TOKENS = 16

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

/**
 * The one-time token that protects `/admin/setup` while no admin exists.
 * Only SHA-256 hashes are stored (in app_settings, so every process can
 * verify a token another one printed); all are discarded once an admin exists.
 */
export class SetupTokenService {
  async adminExists(): Promise<boolean> {
    const row = await AdminUser.query().select('id').first()
    return row !== null
  }

  /** Creates a fresh token and returns its only plain copy; null when an admin exists. */
  async issue(): Promise<string | null> {
    if (await this.adminExists()) {
      await this.clear()
      return null
    }
    const plain = `setup_${randomBytes(24).toString('base64url')}`
    for (let attempt = 0; ; attempt++) {
      try {
        await this.append(sha256(plain))
        return plain
      } catch (error) {
        // Two processes inserting the first token at once: the loser appends again.
        if (attempt >= 2) throw error
      }
    }
  }

  protected async append(hash: string) {
    await db.transaction(async (trx) => {
      const setting = await AppSetting.query({ client: trx }).where('key', SETUP_TOKEN_SETTING).first()
      const hashes = [...this.parse(setting?.value ?? null), hash].slice(-MAX_TOKENS)
      if (setting) {
        setting.useTransaction(trx)
        setting.value = JSON.stringify(hashes)
        await setting.save()
      } else {
        await AppSetting.create(
          { key: SETUP_TOKEN_SETTING, value: JSON.stringify(hashes), isEncrypted: false },
          { client: trx }
        )
      }
    })
  }

  /** True when the token is one of the announced ones (constant-time compare). */
  async verify(plain: string): Promise<boolean> {
    if (typeof plain !== 'string' || plain.length === 0 || plain.length > 200) return false
    const setting = await AppSetting.find(SETUP_TOKEN_SETTING)
    const presented = Buffer.from(sha256(plain.trim()), 'hex')
    let match = false
    for (const hash of this.parse(setting?.value ?? null)) {
      const stored = Buffer.from(hash, 'hex')
      if (stored.length === presented.length && timingSafeEqual(stored, presented)) match = true
    }
    return match
  }

  /** Forgets every token (called once the first admin exists). */
  async clear() {
    await AppSetting.query().where('key', SETUP_TOKEN_SETTING).delete()
  }

  protected parse(value: string | null): string[] {
    if (!value) return []
    try {
      const parsed = JSON.parse(value)
      return Array.isArray(parsed) ? parsed.filter((h) => typeof h === 'string' && /^[0-9a-f]{64}$/.test(h)) : []
    } catch {
      return []
    }
  }
}
