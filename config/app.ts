import env from '#start/env'
import app from '@adonisjs/core/services/app'
import proxyAddr from 'proxy-addr'
import { Secret } from '@adonisjs/core/helpers'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { defineConfig } from '@adonisjs/core/http'
import { isProblemJsonPath } from '#config/surfaces'
import { writeBadUrlResponse } from '#exceptions/problem_details'
import { securityHeaders } from '#services/security_headers'

/**
 * The app key encrypts cookies, sessions and stored provider tokens.
 * It is generated into `.env` on first start when missing.
 */
export const appKey = new Secret(env.get('APP_KEY').release())

/**
 * Cookies (session, XSRF) carry `Secure` whenever the public URL is https, and in
 * production; a plain-http loopback install keeps working without TLS.
 */
export const secureCookies = app.inProduction || /^https:/i.test(env.get('APP_URL', ''))

export const http = defineConfig({
  generateRequestId: true,
  allowMethodSpoofing: false,
  useAsyncLocalStorage: true,
  // X-Forwarded-For is believed only from the proxies TRUST_PROXY lists (start/env.ts).
  trustProxy: proxyAddr.compile(env.get('TRUST_PROXY')),
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: secureCookies,
    sameSite: 'lax',
  },
  // An undecodable URL never reaches the router: still answer problem+json on the API surfaces.
  onBadUrl: (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of Object.entries(securityHeaders())) res.setHeader(name, value)
    writeBadUrlResponse(req.url ?? '/', isProblemJsonPath, res)
  },
})
