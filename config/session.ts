import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, stores } from '@adonisjs/session'
import { secureCookies } from '#config/app'

/**
 * Admin sessions. The cookie store keeps the (encrypted) session in the
 * browser, so every web process shares it without a server-side store;
 * `redis` is available for the scale-out profile. The cookie is `Secure`
 * whenever APP_URL is https (and in production).
 */
const sessionConfig = defineConfig({
  enabled: true,
  cookieName: 'hrvault-session',
  clearWithBrowser: false,
  age: '12h',
  cookie: {
    path: '/',
    httpOnly: true,
    secure: secureCookies,
    sameSite: 'lax',
  },
  store: env.get('SESSION_DRIVER', app.inTest ? 'memory' : 'cookie'),
  stores: {
    cookie: stores.cookie(),
    redis: stores.redis({ connection: 'main' }),
  },
})

export default sessionConfig
