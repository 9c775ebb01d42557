import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { LocalTokenStore } from '#services/polar/local_token_store'
import {
  LoopbackCallbackListener,
  isLoopbackRedirect,
  parsePastedCallback,
  type CallbackResult,
} from '#services/polar/loopback_callback'
import { PolarConnectService } from '#services/polar/polar_connect_service'
import { PolarClientFactory } from '#services/polar/polar_client_factory'

/** Redirect URI used when none is given; register it with your AccessLink client. */
export const DEFAULT_CLI_REDIRECT_URI = 'http://localhost:8765/callback'

/**
 * `node ace polar:auth`: the self-hosted command-line authentication step. Prints Polar's authorize
 * URL, receives the code on a loopback callback listener (or takes a pasted redirect URL / code),
 * exchanges it, registers the user with `POST /v3/users`, stores the token encrypted in CONFIG_DIR
 * and enqueues the back-fill. `--status` shows the stored token; `--revoke` de-registers the user
 * (`DELETE /v3/users/{id}`) and deletes the token.
 */
export default class PolarAuthCommand extends BaseCommand {
  static commandName = 'polar:auth'
  static description = 'Connect a Polar account from the command line (token stored encrypted in CONFIG_DIR)'
  static options: CommandOptions = { startApp: true }

  @flags.boolean({ description: 'Show the stored token (user, obtained, expiry) and exit' })
  declare status?: boolean

  @flags.boolean({ description: 'De-register the user at Polar (revokes the token) and delete it locally' })
  declare revoke?: boolean

  @flags.string({ description: `Redirect URI registered with your AccessLink client (default ${DEFAULT_CLI_REDIRECT_URI})` })
  declare redirectUri?: string

  @flags.string({ description: 'The redirect URL (or bare code) from the browser, when it cannot reach this machine' })
  declare code?: string

  @flags.number({ description: 'Seconds to wait for the browser (default 300)' })
  declare timeout?: number

  @flags.number({ description: 'Days to back-fill after connecting (default SYNC_DAYS)' })
  declare days?: number

  async run() {
    try {
      if (this.status) return await this.showStatus()
      if (this.revoke) return await this.revokeToken()
      await this.connect()
    } catch (error) {
      this.logger.error((error as Error).message)
      this.exitCode = 1
    }
  }

  protected async connect() {
    const connect = await this.app.container.make(PolarConnectService)
    const redirectUri = this.redirectUri ?? DEFAULT_CLI_REDIRECT_URI
    const { url, state } = await connect.authorizeUrl(redirectUri, 'polar_cli')

    let callback: CallbackResult
    if (this.code) {
      callback = parsePastedCallback(this.code)
    } else {
      this.logger.log('Open this URL in a browser and allow access:')
      this.logger.log(url)
      if (isLoopbackRedirect(redirectUri)) {
        const listener = new LoopbackCallbackListener(redirectUri, (this.timeout ?? 300) * 1000)
        await listener.ready
        this.logger.info(`Waiting for Polar to redirect to ${redirectUri} …`)
        this.logger.log('(If the browser runs on another machine, re-run with --code "<the redirect URL>".)')
        callback = await listener.result
      } else {
        const pasted = await this.prompt.ask('Paste the URL the browser was redirected to (or the code)')
        callback = parsePastedCallback(pasted)
      }
    }
    if (callback.error) throw new Error(`Polar did not grant access (${callback.error}).`)
    if (!callback.code) throw new Error('No authorisation code was received.')

    const result = await connect.completeLocal(callback.code, callback.state ?? state, this.days)
    this.logger.success(`Connected Polar user ${result.authorization.polarUserId} (HRVault user "${result.user.externalId}").`)
    this.logger.log(
      result.authorization.newlyRegistered
        ? 'Registered the user with this AccessLink client.'
        : 'The user was already registered with this client.'
    )
    this.logger.log(`Token stored encrypted in ${result.tokenPath}; background sync uses it.`)
    this.logger.log(`Back-fill enqueued (job ${result.backfillJobId}). Run \`node ace sync\` to sync now.`)
  }

  protected async showStatus() {
    const store = await this.app.container.make(LocalTokenStore)
    const stored = await store.read()
    if (!stored) {
      this.logger.log(`No Polar token stored in ${store.path}. Run \`node ace polar:auth\`.`)
      this.exitCode = 1
      return
    }
    this.logger.log(`Polar user:  ${stored.polarUserId} (member id ${stored.memberId})`)
    this.logger.log(`Obtained:    ${stored.obtainedAt}`)
    this.logger.log(`Expires:     ${stored.expiresAt ?? 'unknown'}`)
    this.logger.log(`Stored in:   ${store.path} (encrypted with APP_KEY)`)
    const clients = await this.app.container.make(PolarClientFactory)
    try {
      const profile = await clients.accessLink(stored.accessToken).getUser(stored.polarUserId)
      this.logger.log(`At Polar:    ${profile ? 'registered, token accepted' : 'not registered with this client'}`)
    } catch (error) {
      this.logger.warning(`At Polar:    ${(error as Error).message}`)
    }
  }

  protected async revokeToken() {
    const connect = await this.app.container.make(PolarConnectService)
    const revoked = await connect.revokeLocal()
    if (!revoked) {
      this.logger.log('No Polar token is stored; nothing to revoke.')
      return
    }
    this.logger.success(
      revoked.wasRegistered
        ? `De-registered Polar user ${revoked.polarUserId} and deleted the local token. Stored data is kept.`
        : `Polar no longer knew user ${revoked.polarUserId}; deleted the local token. Stored data is kept.`
    )
  }
}
