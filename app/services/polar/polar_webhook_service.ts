import { createHmac, timingSafeEqual } from 'node:crypto'
import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import encryption from '@adonisjs/core/services/encryption'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import AppSetting from '#models/app_setting'
import ProviderNotConfiguredException from '#exceptions/provider_not_configured_exception'
import { ClockService } from '#services/clock_service'
import { PolarClientFactory } from '#services/polar/polar_client_factory'
import { PolarCredentialsService } from '#services/polar/polar_credentials_service'
import type { PolarWebhook } from '#services/polar/polar_webhook_client'

/** Path of the receiver (a public route outside /api). */
export const POLAR_WEBHOOK_PATH = '/webhooks/polar'

/** The events HRVault subscribes to and turns into targeted fetches. */
export const HANDLED_POLAR_EVENTS = [
  'SLEEP',
  'EXERCISE',
  'ACTIVITY_SUMMARY',
  'CONTINUOUS_HEART_RATE',
  'SLEEP_WISE_CIRCADIAN_BEDTIME',
  'SLEEP_WISE_ALERTNESS',
  'PHYSICAL_INFORMATION',
] as const

/** app_settings keys of the webhook (the secret encrypted with APP_KEY). */
export const POLAR_WEBHOOK_SETTINGS = {
  id: 'polar.webhook_id',
  url: 'polar.webhook_url',
  secret: 'polar.webhook_secret',
  lastEvent: 'polar.webhook_last_event',
} as const
const SETTINGS = POLAR_WEBHOOK_SETTINGS

/** The last event the receiver accepted (name, Polar user, when). */
export interface LastWebhookEvent {
  event: string
  polarUserId: string | null
  receivedAt: string
}

export type WebhookRegistration =
  | { ok: true; webhook: PolarWebhook }
  | { ok: false; reason: 'exists' | 'refused'; message: string }

export interface WebhookStatus {
  /** A signature secret is stored, so signed events are accepted. */
  secretStored: boolean
  /** The webhook as Polar lists it, null when none exists (or Polar could not be asked). */
  remote: PolarWebhook | null
  /** Why Polar could not be asked, when it could not. */
  remoteError: string | null
  /** The URL registered from here. */
  url: string | null
  lastEvent: LastWebhookEvent | null
}

/**
 * Registration of HRVault's receiver with Polar (`node ace polar:webhook`, the admin Polar page)
 * and the signature check of incoming events. The signature secret Polar shows once is stored
 * encrypted with APP_KEY and never printed, logged or sent to a browser.
 */
@inject()
export class PolarWebhookService {
  constructor(
    protected credentials: PolarCredentialsService,
    protected clients: PolarClientFactory,
    protected clock: ClockService
  ) {}

  /** The receiver URL: APP_URL (or the local listener) + /webhooks/polar. */
  defaultUrl(): string {
    const base = env.get('APP_URL') ?? `http://${env.get('HOST', '127.0.0.1')}:${env.get('PORT', 3333)}`
    return `${base.replace(/\/+$/, '')}${POLAR_WEBHOOK_PATH}`
  }

  /**
   * Registers `url` for every handled event. Polar PINGs the URL first (the receiver must be up and
   * reachable from Polar). A 409 means a webhook exists whose secret is lost: delete and register again.
   */
  async register(url = this.defaultUrl()): Promise<WebhookRegistration> {
    const client = await this.client()
    const created = await client.create(url, HANDLED_POLAR_EVENTS)
    if (!created.created) {
      const message =
        created.reason === 'exists'
          ? 'Polar already has a webhook for this client, and its signature secret cannot be read again. ' +
            'Delete it (`node ace polar:webhook delete`) and register again.'
          : `Polar refused the webhook (${created.detail}). The URL must be public and answer Polar's PING with 200.`
      return { ok: false, reason: created.reason, message }
    }
    await this.put(SETTINGS.id, created.webhook.id)
    await this.put(SETTINGS.url, created.webhook.url)
    await this.put(SETTINGS.secret, encryption.encrypt(created.signatureSecretKey), true)
    logger.info({ webhookId: created.webhook.id, url: created.webhook.url }, 'Polar webhook registered')
    return { ok: true, webhook: created.webhook }
  }

  /** Deletes the client's webhook(s) at Polar and forgets the secret; the number deleted. */
  async delete(): Promise<number> {
    const client = await this.client()
    let deleted = 0
    for (const webhook of await client.list()) if (await client.delete(webhook.id)) deleted++
    await AppSetting.query().whereIn('key', [SETTINGS.id, SETTINGS.url, SETTINGS.secret]).delete()
    logger.info({ deleted }, 'Polar webhook deleted')
    return deleted
  }

  /** What Polar lists and what is stored here; `timeoutMs` bounds the call to Polar (a page view). */
  async status(options: { timeoutMs?: number } = {}): Promise<WebhookStatus> {
    const settings = await this.settings()
    let remote: PolarWebhook | null = null
    let remoteError: string | null = null
    try {
      remote = (await (await this.client(options)).list())[0] ?? null
    } catch (error) {
      remoteError = (error as Error).message
    }
    return {
      secretStored: Boolean(settings.get(SETTINGS.secret)),
      remote,
      remoteError,
      url: settings.get(SETTINGS.url) ?? null,
      lastEvent: parseLastEvent(settings.get(SETTINGS.lastEvent)),
    }
  }

  /** True when a secret is stored: events are expected, and the reconciliation poll can be slower. */
  async isActive(): Promise<boolean> {
    return (await AppSetting.find(SETTINGS.secret))?.value ? true : false
  }

  /**
   * Whether `signature` is the hex HMAC-SHA256 of the raw body under the stored secret (constant
   * time). False when no secret is stored.
   */
  async verify(rawBody: string, signature: string | undefined): Promise<boolean> {
    if (!signature) return false
    const sealed = (await AppSetting.find(SETTINGS.secret))?.value
    if (!sealed) return false
    const secret = encryption.decrypt<string>(sealed)
    if (!secret) return false
    const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest()
    const given = /^[0-9a-fA-F]+$/.test(signature.trim()) ? Buffer.from(signature.trim(), 'hex') : Buffer.alloc(0)
    return given.length === expected.length && timingSafeEqual(given, expected)
  }

  /** Remembers the last accepted event for `status`. */
  async recordEvent(event: string, polarUserId: string | null): Promise<void> {
    const value: LastWebhookEvent = { event, polarUserId, receivedAt: this.clock.now().toUTC().toISO()! }
    try {
      await this.put(SETTINGS.lastEvent, JSON.stringify(value))
    } catch (error) {
      // Bookkeeping only: an event is never refused because its receipt could not be noted.
      logger.warn({ err: error }, 'could not record the last webhook event')
    }
  }

  protected async client(overrides: { timeoutMs?: number } = {}) {
    const credentials = await this.credentials.get()
    if (!credentials) throw new ProviderNotConfiguredException()
    return this.clients.webhooks(credentials.clientId, credentials.clientSecret, overrides)
  }

  protected async settings(): Promise<Map<string, string | null>> {
    const rows = await AppSetting.query().whereIn('key', Object.values(SETTINGS))
    return new Map(rows.map((row) => [row.key, row.value]))
  }

  /** One atomic upsert: receivers in several processes write the same key at once. */
  protected async put(key: string, value: string, isEncrypted = false) {
    const now = this.clock.now().toFormat(db.connection().dialect.dateTimeFormat)
    await db
      .table(AppSetting.table)
      .insert({ key, value, is_encrypted: isEncrypted, created_at: now, updated_at: now })
      .onConflict('key')
      .merge(['value', 'is_encrypted', 'updated_at'])
  }
}

function parseLastEvent(value: string | null | undefined): LastWebhookEvent | null {
  if (!value) return null
  try {
    return JSON.parse(value) as LastWebhookEvent
  } catch {
    return null
  }
}
