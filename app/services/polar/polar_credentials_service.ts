import env from '#start/env'
import encryption from '@adonisjs/core/services/encryption'
import AppSetting from '#models/app_setting'

export const POLAR_CLIENT_ID_SETTING = 'polar.client_id'
export const POLAR_CLIENT_SECRET_SETTING = 'polar.client_secret'

export interface PolarCredentials {
  clientId: string
  clientSecret: string
  source: 'env' | 'settings'
}

/**
 * AccessLink client credentials: POLAR_CLIENT_ID / POLAR_CLIENT_SECRET win;
 * otherwise the pair saved in the admin UI (app_settings, the secret
 * encrypted with APP_KEY). The secret is never sent back to the browser.
 */
export class PolarCredentialsService {
  /** The pair in force (environment first), or null when neither source has both halves. */
  async get(): Promise<PolarCredentials | null> {
    const envId = env.get('POLAR_CLIENT_ID')
    const envSecret = env.get('POLAR_CLIENT_SECRET')
    if (envId && envSecret) return { clientId: envId, clientSecret: envSecret, source: 'env' }
    const rows = await AppSetting.query().whereIn('key', [POLAR_CLIENT_ID_SETTING, POLAR_CLIENT_SECRET_SETTING])
    const id = rows.find((r) => r.key === POLAR_CLIENT_ID_SETTING)?.value ?? null
    const sealed = rows.find((r) => r.key === POLAR_CLIENT_SECRET_SETTING)?.value ?? null
    const secret = sealed ? encryption.decrypt<string>(sealed) : null
    if (!id || !secret) return null
    return { clientId: id, clientSecret: secret, source: 'settings' }
  }

  /** True when the environment fixes the credentials (the form is then read-only). */
  fromEnv(): boolean {
    return Boolean(env.get('POLAR_CLIENT_ID') && env.get('POLAR_CLIENT_SECRET'))
  }

  /** Stores the pair from the admin UI, the secret encrypted with APP_KEY. */
  async save(clientId: string, clientSecret: string) {
    await AppSetting.updateOrCreate(
      { key: POLAR_CLIENT_ID_SETTING },
      { key: POLAR_CLIENT_ID_SETTING, value: clientId, isEncrypted: false }
    )
    await AppSetting.updateOrCreate(
      { key: POLAR_CLIENT_SECRET_SETTING },
      { key: POLAR_CLIENT_SECRET_SETTING, value: encryption.encrypt(clientSecret), isEncrypted: true }
    )
  }

  /** What the page may show: the client id and where it comes from, never the secret. */
  async summary() {
    const credentials = await this.get()
    return {
      configured: credentials !== null,
      source: credentials?.source ?? null,
      clientId: credentials?.clientId ?? null,
      fromEnv: this.fromEnv(),
    }
  }
}
