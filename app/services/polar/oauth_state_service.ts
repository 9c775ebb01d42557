import { createHash, randomBytes } from 'node:crypto'
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import OauthState from '#models/oauth_state'
import ProviderOauthStateException from '#exceptions/provider_oauth_state_exception'
import { ClockService } from '#services/clock_service'

/** Authorisation codes live 10 minutes at Polar; a state never outlives that by much. */
const STATE_TTL_MINUTES = 15

const hashState = (plain: string) => createHash('sha256').update(plain).digest('hex')

/**
 * Single-use OAuth `state` values shared by every process (DESIGN §1): 256 random bits handed to the
 * browser, only their SHA-256 stored in `oauth_states` with a purpose, an optional JSON payload and
 * an expiry. Consuming marks the row used in one conditional UPDATE, so a state works exactly once
 * even when two processes receive the same callback.
 */
@inject()
export class OauthStateService {
  constructor(protected clock: ClockService) {}

  /** Creates a state for `purpose` and returns its plain value (purges expired states). */
  async create(purpose: string, payload: Record<string, unknown> | null = null): Promise<string> {
    const now = this.clock.now()
    await OauthState.query()
      .where('expiresAt', '<', now.toFormat(db.connection().dialect.dateTimeFormat))
      .delete()
    const plain = randomBytes(32).toString('base64url')
    await OauthState.create({
      stateHash: hashState(plain),
      purpose,
      payload: payload ? JSON.stringify(payload) : null,
      expiresAt: now.plus({ minutes: STATE_TTL_MINUTES }),
      usedAt: null,
    })
    return plain
  }

  /** Uses a state once; returns its payload or throws ProviderOauthStateException (400). */
  async consume(plain: string | null | undefined, purpose: string): Promise<Record<string, unknown> | null> {
    if (!plain) throw new ProviderOauthStateException()
    const now = this.clock.now()
    const client = db.connection()
    const stamp = now.toFormat(client.dialect.dateTimeFormat)
    const hash = hashState(plain)
    const row = await OauthState.query().where('stateHash', hash).where('purpose', purpose).first()
    if (!row || row.usedAt !== null || row.expiresAt < now) throw new ProviderOauthStateException()
    const updated = await client
      .from('oauth_states')
      .where('state_hash', hash)
      .whereNull('used_at')
      .update({ used_at: stamp })
    const count = Array.isArray(updated) ? Number(updated[0] ?? 0) : Number(updated)
    if (count !== 1) throw new ProviderOauthStateException()
    return row.payload ? (JSON.parse(row.payload) as Record<string, unknown>) : null
  }
}
