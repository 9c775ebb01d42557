import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { Secret } from '@adonisjs/core/helpers'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { defineConfig } from '@adonisjs/core/http'
import { isProblemJsonPath } from '#config/surfaces'
import { writeBadUrlResponse } from '#exceptions/problem_details'

/**
 * The app key encrypts cookies, sessions and stored provider tokens.
 * It is generated into `.env` on first start when missing.
 */
export const appKey = new Secret(env.get('APP_KEY').release())

export const http = defineConfig({
  generateRequestId: true,
  allowMethodSpoofing: false,
  useAsyncLocalStorage: true,
  trustProxy: env.get('TRUST_PROXY', false) ? () => true : () => false,
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: app.inProduction,
    sameSite: 'lax',
  },
  // An undecodable URL never reaches the router: still answer problem+json on the API surfaces.
  onBadUrl: (req: IncomingMessage, res: ServerResponse) => writeBadUrlResponse(req.url ?? '/', isProblemJsonPath, res),
})
