import { AccessLinkClient } from '#services/polar/accesslink_client'
import { PolarOAuthClient } from '#services/polar/polar_oauth_client'
import { PolarWebhookClient } from '#services/polar/polar_webhook_client'
import type { TransportOptions } from '#services/polar/transport'

/** Where the Polar clients connect; every value defaults to the POLAR_* environment variables. */
export interface PolarEndpoints extends TransportOptions {
  baseUrl?: string
  authUrl?: string
  tokenUrl?: string
}

/**
 * Creates the AccessLink and OAuth clients used by syncs and connections. The single place that
 * decides the upstream URLs, so tests and the demo point every caller at the loopback simulator by
 * swapping this class in the container.
 */
export class PolarClientFactory {
  constructor(readonly endpoints: PolarEndpoints = {}) {}

  /** A fresh AccessLink client for one user's token (one per user-sync: it counts the calls). */
  accessLink(accessToken: string): AccessLinkClient {
    const { authUrl: _a, tokenUrl: _t, ...options } = this.endpoints
    return new AccessLinkClient({ ...options, accessToken })
  }

  /** The webhook management client for the AccessLink client credentials. */
  webhooks(clientId: string, clientSecret: string, overrides: { timeoutMs?: number } = {}): PolarWebhookClient {
    const { authUrl: _a, tokenUrl: _t, ...options } = this.endpoints
    return new PolarWebhookClient({ ...options, ...overrides, clientId, clientSecret })
  }

  /** An OAuth client for the configured AccessLink client credentials. */
  oauth(clientId: string, clientSecret: string): PolarOAuthClient {
    const { baseUrl: _b, ...options } = this.endpoints
    return new PolarOAuthClient({ ...options, clientId, clientSecret })
  }
}
