import app from '@adonisjs/core/services/app'
import { AccessLinkClient } from '#services/polar/accesslink_client'
import { PolarOAuthClient } from '#services/polar/polar_oauth_client'
import { PolarWebhookClient } from '#services/polar/polar_webhook_client'
import type { TransportOptions } from '#services/polar/transport'
import { PolarBudgetService, type BudgetAllowance } from '#services/sync/polar_budget_service'

/** Where the Polar clients connect; every value defaults to the POLAR_* environment variables. */
export interface PolarEndpoints extends TransportOptions {
  baseUrl?: string
  authUrl?: string
  tokenUrl?: string
}

/** The transport options that admit each call against the shared Polar budget. */
type BudgetHooks = Required<Pick<TransportOptions, 'beforeRequest' | 'onRateLimit'>>

/**
 * Creates the AccessLink and OAuth clients used by syncs and connections. The single place that
 * decides the upstream URLs, so tests and the demo point every caller at the loopback simulator by
 * swapping this class in the container. Every client it creates counts its calls against the
 * installation's Polar budget (PolarBudgetService): a sync passes the allowance it was admitted
 * with; any other AccessLink caller (webhook events, connecting an account) gets one of the `event`
 * class, which may use the whole window. Webhook management (a few calls an operator makes, which
 * must work even in a spent window) and the OAuth token endpoint (another host) are not admitted;
 * Polar's headers on the next counted call account for them.
 */
export class PolarClientFactory {
  constructor(readonly endpoints: PolarEndpoints = {}) {}

  /**
   * A fresh AccessLink client for one user's token (one per user-sync: it counts the calls).
   * `budget` is the allowance the work was admitted with; without it, calls count as `event` work.
   */
  accessLink(accessToken: string, budget?: BudgetAllowance): AccessLinkClient {
    const { authUrl: _a, tokenUrl: _t, ...options } = this.endpoints
    return new AccessLinkClient({ ...this.budgetHooks(budget), ...options, accessToken })
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

  /** Transport hooks bound to `budget`, or to an `event` allowance made on the first call. */
  protected budgetHooks(budget?: BudgetAllowance): BudgetHooks {
    let allowance: Promise<BudgetAllowance> | null = budget ? Promise.resolve(budget) : null
    const resolve = () => (allowance ??= app.container.make(PolarBudgetService).then((service) => service.allowance('event')))
    return {
      beforeRequest: async (endpoint) => (await resolve()).beforeRequest(endpoint),
      onRateLimit: async (state, status) => (await resolve()).afterResponse(status, state),
    }
  }
}
