import { inject } from '@adonisjs/core'
import { Exception } from '@adonisjs/core/exceptions'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import { PolarConnectService } from '#services/connect/polar_connect_service'
import { PolarCredentialsService } from '#services/admin/polar_credentials_service'

/** Path of the OAuth callback in the admin UI (the redirect URI to register at Polar). */
export const POLAR_CALLBACK_PATH = '/admin/polar/callback'

export type ConnectStart = { ok: true; url: string } | { ok: false; message: string }

export type ConnectResult =
  | { ok: true; userId: string; apiKey: string; jobId: string; newlyRegistered: boolean }
  | { ok: false; message: string }

/** The admin UI side of the Polar OAuth flow: start, callback, and what the page shows. */
@inject()
export class PolarConnectionService {
  constructor(
    protected connect: PolarConnectService,
    protected credentials: PolarCredentialsService
  ) {}

  /** The redirect URI registered at Polar: APP_URL (or the listen address) + the callback path. */
  callbackUrl(): string {
    const base = env.get('APP_URL') ?? `http://${env.get('HOST', '127.0.0.1')}:${env.get('PORT', 3333)}`
    return `${base.replace(/\/+$/, '')}${POLAR_CALLBACK_PATH}`
  }

  async start(): Promise<ConnectStart> {
    try {
      const { url } = await this.connect.authorizeUrl(this.callbackUrl())
      return { ok: true, url }
    } catch (error) {
      return { ok: false, message: this.describe(error) }
    }
  }

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
      const connected = await this.connect.complete(code, state)
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

  /** Domain errors carry a message meant for people; anything else is logged, not shown. */
  protected describe(error: unknown): string {
    if (error instanceof Exception && error.status < 600) {
      return error.message
    }
    logger.error({ err: error }, 'Polar connection failed')
    return 'Connecting to Polar failed unexpectedly; the server log has the details.'
  }
}
