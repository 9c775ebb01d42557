import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import { SetupTokenService } from '#services/admin/setup_token_service'

/**
 * Prints the one-time setup token at start while no admin exists. The token
 * goes to the process's standard output (the console / container log of
 * whoever runs the server), never into the log files under LOG_DIR, which
 * the operations API can read with a `logs:read` token.
 */
@inject()
export class SetupAnnouncer {
  constructor(protected tokens: SetupTokenService) {}

  /** Issues and prints a fresh token; silent once an admin exists, and never throws. */
  async announce() {
    try {
      const token = await this.tokens.issue()
      if (!token) return
      const base = (env.get('APP_URL') ?? `http://${env.get('HOST', '127.0.0.1')}:${env.get('PORT', 3333)}`).replace(
        /\/+$/,
        ''
      )
      logger.warn({ setupUrl: `${base}/admin/setup` }, 'no admin account yet: the setup token is printed on stdout')
      process.stdout.write(
        [
          '',
          '  No admin account yet. Create the first one at',
          `    ${base}/admin/setup`,
          `  with the one-time setup token  ${token}`,
          '  (or run: node ace admin create --email you@example.com)',
          '',
          '',
        ].join('\n')
      )
    } catch (error) {
      logger.error({ err: error }, 'could not issue the admin setup token')
    }
  }
}
