import { inject } from '@adonisjs/core'
import { Exception } from '@adonisjs/core/exceptions'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import User from '#models/user'
import ProviderNotConfiguredException from '#exceptions/provider_not_configured_exception'
import { ApiKeyService } from '#services/auth/api_key_service'
import { ClockService } from '#services/clock_service'
import { LocalTokenStore } from '#services/polar/local_token_store'
import { OauthStateService } from '#services/polar/oauth_state_service'
import { PolarClientFactory } from '#services/polar/polar_client_factory'
import { PolarCredentialsService } from '#services/polar/polar_credentials_service'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { SyncSchedulerService } from '#services/sync/sync_scheduler_service'
import { defaultSyncDays } from '#services/sync/user_sync_service'

/** A code exchanged and the Polar user registered with this client. */
export interface PolarAuthorization {
  accessToken: string
  polarUserId: string
  memberId: string
  /** false when Polar answered 409 (already registered: fine). */
  newlyRegistered: boolean
  expiresInSeconds: number | null
}

/** A user connected through the OAuth flow of the admin UI. */
export interface ConnectedUser {
  user: User
  /** The user-scoped API key, shown once. */
  apiKey: string
  newlyRegistered: boolean
  /** Queue id of the immediate back-fill. */
  backfillJobId: string
}

/** State purposes: the admin UI flow and the `polar:auth` command. */
export type ConnectPurpose = 'polar_connect' | 'polar_cli'

/** Path of the OAuth callback in the admin UI (the redirect URI to register at Polar). */
export const POLAR_CALLBACK_PATH = '/admin/polar/callback'

/** Where the admin UI sends the browser, or why it cannot. */
export type ConnectStart = { ok: true; url: string } | { ok: false; message: string }

/** What the admin UI shows after Polar's callback: the key once, or a message for people. */
export type ConnectResult =
  | { ok: true; userId: string; apiKey: string; jobId: string; newlyRegistered: boolean }
  | { ok: false; message: string }

/**
 * Connecting a Polar account (DESIGN §4, §7): authorize URL with a single-use state, the code
 * exchange (HTTP Basic client authentication, form body), `POST /v3/users` with a member id
 * (409 = already registered, fine), the token stored encrypted, a user-scoped API key and an
 * immediate back-fill job. The admin UI's start/finish turn failures into messages for the page;
 * the `polar:auth` command uses the same steps but keeps the token on the local configuration volume.
 */
@inject()
export class PolarConnectService {
  constructor(
    protected credentials: PolarCredentialsService,
    protected clients: PolarClientFactory,
    protected states: OauthStateService,
    protected tokens: ProviderTokenService,
    protected apiKeys: ApiKeyService,
    protected scheduler: SyncSchedulerService,
    protected local: LocalTokenStore,
    protected clock: ClockService
  ) {}

  protected async oauthClient() {
    const credentials = await this.credentials.get()
    if (!credentials) throw new ProviderNotConfiguredException()
    return this.clients.oauth(credentials.clientId, credentials.clientSecret)
  }

  /** The Polar authorize URL to send the browser to, with a fresh single-use state. */
  async authorizeUrl(redirectUri: string, purpose: ConnectPurpose = 'polar_connect'): Promise<{ url: string; state: string }> {
    const oauth = await this.oauthClient()
    const state = await this.states.create(purpose, { redirect_uri: redirectUri })
    return { url: oauth.authorizeUrl({ state, redirectUri }), state }
  }

  /** Checks the state, exchanges the code and registers the user with Polar. */
  async authorize(code: string, state: string, purpose: ConnectPurpose = 'polar_connect'): Promise<PolarAuthorization> {
    const payload = await this.states.consume(state, purpose)
    const redirectUri = typeof payload?.redirect_uri === 'string' ? payload.redirect_uri : undefined
    const oauth = await this.oauthClient()
    const token = await oauth.exchangeCode(code, redirectUri)
    const polarUserId = String(token.polarUserId)
    const memberId = `hrvault-${polarUserId}`
    const registration = await this.clients.accessLink(token.accessToken).registerUser(memberId)
    return {
      accessToken: token.accessToken,
      polarUserId,
      memberId,
      newlyRegistered: registration.created,
      expiresInSeconds: token.expiresIn,
    }
  }

  /**
   * Completes the admin UI flow: the user (external id = Polar user id) is created or updated, the
   * token stored encrypted, a user-scoped API key created and a back-fill enqueued.
   */
  async complete(code: string, state: string, backfillDays = defaultSyncDays()): Promise<ConnectedUser> {
    const connected = await this.connect(code, state, backfillDays)
    const { plain } = await this.apiKeys.create(`polar-${connected.user.polarUserId}`, connected.user.externalId)
    return { ...connected, apiKey: plain }
  }

  /**
   * {@link complete} without the API key, for a caller that already holds one for this user (the
   * demo reconnecting on every start keeps the key it printed the first time).
   */
  async connect(code: string, state: string, backfillDays = defaultSyncDays()): Promise<Omit<ConnectedUser, 'apiKey'>> {
    const authorization = await this.authorize(code, state, 'polar_connect')
    const user = await this.upsertUser(authorization)
    const expiresAt =
      authorization.expiresInSeconds === null ? null : this.clock.now().plus({ seconds: authorization.expiresInSeconds })
    await this.tokens.store(user, authorization.accessToken, expiresAt)
    const backfillJobId = await this.scheduler.backfill(user.id, backfillDays, 'connect')
    logger.info({ userId: user.id, newlyRegistered: authorization.newlyRegistered }, 'Polar account connected')
    return { user, newlyRegistered: authorization.newlyRegistered, backfillJobId }
  }

  /** The redirect URI registered at Polar: APP_URL (or the listen address) + the callback path. */
  callbackUrl(): string {
    const base = env.get('APP_URL') ?? `http://${env.get('HOST', '127.0.0.1')}:${env.get('PORT', 3333)}`
    return `${base.replace(/\/+$/, '')}${POLAR_CALLBACK_PATH}`
  }

  /** Starts the admin UI flow: the authorize URL for {@link callbackUrl}, or why it cannot start. */
  async start(): Promise<ConnectStart> {
    try {
      const { url } = await this.authorizeUrl(this.callbackUrl())
      return { ok: true, url }
    } catch (error) {
      return { ok: false, message: this.describe(error) }
    }
  }

  /**
   * Finishes the admin UI flow from Polar's callback parameters ({@link complete}); a refusal, a
   * missing code or a failure becomes a message for the page instead of an error.
   */
  async finish(code: string | undefined, state: string | undefined, providerError: string | undefined): Promise<ConnectResult> {
    if (providerError) {
      return {
        ok: false,
        message:
          providerError === 'access_denied'
            ? 'The Polar account owner declined access. Nothing was connected.'
            : `Polar refused the authorisation (${providerError}).`,
      }
    }
    if (!code || !state) return { ok: false, message: 'The Polar callback carried no authorisation code. Start again.' }
    try {
      const connected = await this.complete(code, state)
      return {
        ok: true,
        userId: connected.user.externalId,
        apiKey: connected.apiKey,
        jobId: connected.backfillJobId,
        newlyRegistered: connected.newlyRegistered,
      }
    } catch (error) {
      return { ok: false, message: this.describe(error) }
    }
  }

  /**
   * Completes the `polar:auth` flow: the token goes to CONFIG_DIR (encrypted), the user row is
   * created or updated so background sync picks it up, and a back-fill is enqueued.
   */
  async completeLocal(code: string, state: string, backfillDays = defaultSyncDays()) {
    const authorization = await this.authorize(code, state, 'polar_cli')
    const user = await this.upsertUser(authorization)
    const now = this.clock.now()
    await this.local.write({
      polarUserId: authorization.polarUserId,
      memberId: authorization.memberId,
      accessToken: authorization.accessToken,
      obtainedAt: now.toISO()!,
      expiresAt:
        authorization.expiresInSeconds === null ? null : now.plus({ seconds: authorization.expiresInSeconds }).toISO(),
    })
    const backfillJobId = await this.scheduler.backfill(user.id, backfillDays, 'connect')
    return { user, authorization, backfillJobId, tokenPath: this.local.path }
  }

  /** De-registers the `polar:auth` user at Polar (which revokes the token) and deletes the local token. */
  async revokeLocal(): Promise<{ polarUserId: string; wasRegistered: boolean } | null> {
    const stored = await this.local.read()
    if (!stored) return null
    const wasRegistered = await this.clients.accessLink(stored.accessToken).deregisterUser(stored.polarUserId)
    await this.local.remove()
    const user = await User.findBy('polarUserId', stored.polarUserId)
    if (user) {
      user.connectedAt = null
      await user.save()
    }
    return { polarUserId: stored.polarUserId, wasRegistered }
  }

  /** Domain errors carry a message meant for people; anything else is logged, not shown. */
  protected describe(error: unknown): string {
    if (error instanceof Exception && error.status < 600) {
      return error.message
    }
    logger.error({ err: error }, 'Polar connection failed')
    return 'Connecting to Polar failed unexpectedly; the server log has the details.'
  }

  protected async upsertUser(authorization: PolarAuthorization): Promise<User> {
    const user =
      (await User.findBy('polarUserId', authorization.polarUserId)) ??
      (await User.firstOrCreate({ externalId: authorization.polarUserId }, { externalId: authorization.polarUserId, isActive: true }))
    user.merge({
      polarUserId: authorization.polarUserId,
      memberId: authorization.memberId,
      isActive: true,
      connectedAt: this.clock.now(),
    })
    await user.save()
    return user
  }
}
