import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { DateTime } from 'luxon'
import { oauthLifetimes } from '#config/oauth'
import OAuthProtocolException from '#exceptions/oauth_protocol_exception'
import OauthAuthorizationCode from '#models/oauth_authorization_code'
import OauthClient from '#models/oauth_client'
import OauthGrant from '#models/oauth_grant'
import OauthToken from '#models/oauth_token'
import User from '#models/user'
import { ClockService } from '#services/clock_service'
import { qualifiedColumnOf, type AttributeOf } from '#services/records/columns'
import { sameResource, parseScopes } from '#services/oauth/oauth_scopes'
import { TOKEN_PREFIXES, newSecret, s256Challenge, safeEqual, sha256Hex } from '#services/oauth/oauth_secrets'

/** Who a valid OAuth access token speaks for: one HRVault user, the granted scopes, the client. */
export interface OAuthTokenIdentity {
  /** `users.id` of the only user the token may read. */
  userId: number
  /** The user's `{user_id}` in the API. */
  externalUserId: string
  /** Granted scopes (`health:read`, `sync`). */
  scopes: string[]
  /** The client's public `client_id`. */
  clientId: string
  /** The name the client registered with (shown on the consent page and in Connected apps). */
  clientName: string
  /** The grant (connected app) the token belongs to. */
  grantId: number
  /** The resource (RFC 8707) the token is for: `<APP_URL>/mcp`. */
  resource: string
  /** Expiry in seconds since the epoch (as the MCP SDK's AuthInfo wants it). */
  expiresAt: number
}

/** The token endpoint's success body (RFC 6749 §5.1). */
export interface OAuthTokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  refresh_token: string
  scope: string
}

/** `last_used_at` of a grant is written at most once a minute. */
const TOUCH_INTERVAL_MS = 60_000

const invalidGrant = (description: string) => new OAuthProtocolException('invalid_grant', description)

/** Affected rows of an UPDATE on either driver. */
const affected = (result: unknown) => (Array.isArray(result) ? Number(result[0] ?? 0) : Number(result))

/** A driver's timestamp value (SQLite text in local time, PostgreSQL Date) as a DateTime. */
function dateTimeOf(value: unknown): DateTime | null {
  if (value instanceof Date) return DateTime.fromJSDate(value)
  if (typeof value === 'string') return DateTime.fromSQL(value)
  return null
}

/**
 * Tokens of the OAuth authorization server: verifying an access token for the MCP endpoint,
 * exchanging an authorization code (PKCE S256), rotating refresh tokens with reuse detection
 * (RFC 9700 §4.14: a spent refresh token presented again revokes the whole grant) and
 * revocation (RFC 7009). Only SHA-256 hashes are stored; tokens are opaque 256-bit values.
 */
@inject()
export class OAuthTokenService {
  constructor(protected clock: ClockService) {}

  /**
   * The identity of a bearer access token, or null when it is unknown, expired or revoked
   * (itself or its grant), or not an OAuth access token at all. One query; the grant's
   * `last_used_at` is written at most once a minute.
   */
  async verifyAccessToken(token: string): Promise<OAuthTokenIdentity | null> {
    if (typeof token !== 'string' || !token.startsWith(TOKEN_PREFIXES.accessToken) || token.length > 200) return null
    const now = this.clock.now()
    const tokenColumn = (attribute: AttributeOf<typeof OauthToken>) => qualifiedColumnOf(OauthToken, attribute)
    const grantColumn = (attribute: AttributeOf<typeof OauthGrant>) => qualifiedColumnOf(OauthGrant, attribute)
    const row = await db
      .from(OauthToken.table)
      .join(OauthGrant.table, grantColumn('id'), tokenColumn('grantId'))
      .join(OauthClient.table, qualifiedColumnOf(OauthClient, 'id'), grantColumn('oauthClientId'))
      .join(User.table, qualifiedColumnOf(User, 'id'), grantColumn('userId'))
      .where(tokenColumn('tokenHash'), sha256Hex(token))
      .where(tokenColumn('kind'), 'access')
      .whereNull(tokenColumn('revokedAt'))
      .whereNull(grantColumn('revokedAt'))
      .where(tokenColumn('expiresAt'), '>', this.sqlStamp(now))
      .select({
        expiresAt: tokenColumn('expiresAt'),
        scopes: tokenColumn('scopes'),
        grantId: grantColumn('id'),
        resource: grantColumn('resource'),
        lastUsedAt: grantColumn('lastUsedAt'),
        userId: qualifiedColumnOf(User, 'id'),
        externalUserId: qualifiedColumnOf(User, 'externalId'),
        clientId: qualifiedColumnOf(OauthClient, 'clientId'),
        clientName: qualifiedColumnOf(OauthClient, 'name'),
      })
      .first()
    if (!row) return null

    const lastUsed = dateTimeOf(row.lastUsedAt)
    if (!lastUsed || now.toMillis() - lastUsed.toMillis() >= TOUCH_INTERVAL_MS) {
      await OauthGrant.query().where('id', row.grantId).update({ lastUsedAt: this.sqlStamp(now) })
    }
    const expiresAt = dateTimeOf(row.expiresAt)
    return {
      userId: Number(row.userId),
      externalUserId: row.externalUserId,
      scopes: parseScopes(row.scopes),
      clientId: row.clientId,
      clientName: row.clientName,
      grantId: Number(row.grantId),
      resource: row.resource,
      expiresAt: Math.floor((expiresAt?.toMillis() ?? now.toMillis()) / 1000),
    }
  }

  /**
   * `grant_type=authorization_code`: checks the code (this client's, unused, unexpired), the
   * redirect URI and resource it was issued for and the PKCE verifier, marks it used in one
   * conditional UPDATE, and creates the grant with its first token pair. The grant replaces
   * an earlier one of the same client for the same user. A replayed code revokes the grant it
   * produced (RFC 6749 §4.1.2). Throws OAuthProtocolException.
   */
  async exchangeCode(
    client: OauthClient,
    input: { code: string; codeVerifier: string; redirectUri?: string; resource?: string }
  ): Promise<OAuthTokenResponse> {
    const now = this.clock.now()
    const code = await OauthAuthorizationCode.findBy('codeHash', sha256Hex(input.code))
    if (!code || code.oauthClientId !== client.id) throw invalidGrant('The authorization code is invalid.')
    if (code.usedAt) {
      if (code.grantId) await this.revokeGrant(code.grantId)
      throw invalidGrant('The authorization code was already used; the tokens issued with it are revoked.')
    }
    if (code.expiresAt <= now) throw invalidGrant('The authorization code has expired.')
    if (input.redirectUri !== undefined && input.redirectUri !== code.redirectUri) {
      throw invalidGrant('redirect_uri does not match the one of the authorization request.')
    }
    if (input.resource !== undefined && !sameResource(input.resource, code.resource)) {
      throw new OAuthProtocolException('invalid_target', 'resource does not match the one of the authorization request.')
    }
    if (!safeEqual(s256Challenge(input.codeVerifier), code.codeChallenge)) {
      throw invalidGrant('code_verifier does not match the code_challenge (PKCE S256).')
    }

    const issued = await db.transaction(async (trx) => {
      const used = await OauthAuthorizationCode.query({ client: trx })
        .where('id', code.id)
        .whereNull('usedAt')
        .update({ usedAt: this.sqlStamp(now) })
      if (affected(used) !== 1) return null
      const earlier = await OauthGrant.query({ client: trx })
        .where('oauthClientId', client.id)
        .where('userId', code.userId)
        .whereNull('revokedAt')
        .select('id')
      for (const { id } of earlier) await this.revokeGrant(id, trx)
      const grant = await OauthGrant.create(
        {
          oauthClientId: client.id,
          userId: code.userId,
          adminUserId: code.adminUserId,
          scopes: code.scopes,
          resource: code.resource,
          lastUsedAt: null,
          revokedAt: null,
        },
        { client: trx }
      )
      await OauthAuthorizationCode.query({ client: trx }).where('id', code.id).update({ grantId: grant.id })
      return this.issue(grant.id, parseScopes(code.scopes), parseScopes(code.scopes), trx)
    })
    if (!issued) throw invalidGrant('The authorization code was already used.')
    return issued
  }

  /**
   * `grant_type=refresh_token`: rotates the refresh token (the presented one is spent, a new
   * pair is issued). A spent token presented again revokes the whole grant. `scope` may narrow
   * the new access token's scopes, never widen them. Throws OAuthProtocolException.
   */
  async refresh(
    client: OauthClient,
    input: { refreshToken: string; scope?: string; resource?: string }
  ): Promise<OAuthTokenResponse> {
    const now = this.clock.now()
    const token = await OauthToken.query()
      .where('tokenHash', sha256Hex(input.refreshToken))
      .where('kind', 'refresh')
      .first()
    const grant = token ? await OauthGrant.find(token.grantId) : null
    if (!token || !grant || grant.oauthClientId !== client.id) throw invalidGrant('The refresh token is invalid.')
    if (grant.revokedAt || token.revokedAt) throw invalidGrant('The refresh token was revoked.')
    if (token.usedAt) {
      await this.revokeGrant(grant.id)
      throw invalidGrant('The refresh token was already used; the grant is revoked.')
    }
    if (token.expiresAt <= now) throw invalidGrant('The refresh token has expired.')
    if (input.resource !== undefined && !sameResource(input.resource, grant.resource)) {
      throw new OAuthProtocolException('invalid_target', 'resource does not match the grant.')
    }
    const granted = parseScopes(token.scopes)
    const requested = input.scope === undefined ? granted : parseScopes(input.scope)
    if (requested.length === 0 || requested.some((scope) => !granted.includes(scope))) {
      throw new OAuthProtocolException('invalid_scope', `scope may only narrow the granted scopes (${granted.join(' ')}).`)
    }

    const issued = await db.transaction(async (trx) => {
      const spent = await OauthToken.query({ client: trx })
        .where('id', token.id)
        .whereNull('usedAt')
        .update({ usedAt: this.sqlStamp(now) })
      if (affected(spent) !== 1) return null
      // Housekeeping: expired tokens of this grant are never needed again.
      await OauthToken.query({ client: trx })
        .where('grantId', grant.id)
        .where('expiresAt', '<=', this.sqlStamp(now))
        .delete()
      return this.issue(grant.id, requested, granted, trx)
    })
    if (!issued) {
      await this.revokeGrant(grant.id)
      throw invalidGrant('The refresh token was already used; the grant is revoked.')
    }
    return issued
  }

  /**
   * RFC 7009: revokes a token of this client. A refresh token ends the whole grant (every
   * token); an access token ends itself. Unknown tokens and tokens of other clients are
   * ignored, so the endpoint answers the same for all of them.
   */
  async revoke(client: OauthClient, value: string): Promise<void> {
    const token = await OauthToken.findBy('tokenHash', sha256Hex(value))
    if (!token) return
    const grant = await OauthGrant.find(token.grantId)
    if (!grant || grant.oauthClientId !== client.id) return
    if (token.kind === 'refresh') {
      await this.revokeGrant(grant.id)
      return
    }
    await OauthToken.query().where('id', token.id).update({ revokedAt: this.sqlStamp(this.clock.now()) })
  }

  /**
   * Revokes a grant: marked revoked (kept for the record) and its tokens deleted, so every
   * access and refresh token of it stops working at once. False when it was not active.
   */
  async revokeGrant(grantId: number, trx?: TransactionClientContract): Promise<boolean> {
    const run = async (client: TransactionClientContract) => {
      const updated = await OauthGrant.query({ client })
        .where('id', grantId)
        .whereNull('revokedAt')
        .update({ revokedAt: this.sqlStamp(this.clock.now()) })
      await OauthToken.query({ client }).where('grantId', grantId).delete()
      return affected(updated) === 1
    }
    return trx ? run(trx) : db.transaction(run)
  }

  /** A new access token (with `scopes`) and refresh token (with `refreshScopes`) for a grant. */
  protected async issue(
    grantId: number,
    scopes: string[],
    refreshScopes: string[],
    trx: TransactionClientContract
  ): Promise<OAuthTokenResponse> {
    const now = this.clock.now().toLocal()
    const accessToken = newSecret(TOKEN_PREFIXES.accessToken)
    const refreshToken = newSecret(TOKEN_PREFIXES.refreshToken)
    await OauthToken.createMany(
      [
        {
          tokenHash: sha256Hex(accessToken),
          grantId,
          kind: 'access',
          scopes: scopes.join(' '),
          expiresAt: now.plus({ seconds: oauthLifetimes.accessTokenSeconds }),
          usedAt: null,
          revokedAt: null,
        },
        {
          tokenHash: sha256Hex(refreshToken),
          grantId,
          kind: 'refresh',
          scopes: refreshScopes.join(' '),
          expiresAt: now.plus({ seconds: oauthLifetimes.refreshTokenSeconds }),
          usedAt: null,
          revokedAt: null,
        },
      ],
      { client: trx }
    )
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: oauthLifetimes.accessTokenSeconds,
      refresh_token: refreshToken,
      scope: scopes.join(' '),
    }
  }

  /**
   * A timestamp as the driver compares it: SQLite stores local wall time (as Lucid writes
   * `autoCreate` columns), PostgreSQL an instant with its offset.
   */
  protected sqlStamp(value: DateTime): string {
    return value.toLocal().toFormat(db.connection().dialect.dateTimeFormat)
  }
}
