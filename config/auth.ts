import { defineConfig } from '@adonisjs/auth'
import { sessionGuard } from '@adonisjs/auth/session'
import type { InferAuthEvents, Authenticators } from '@adonisjs/auth/types'
import { AdminSessionUserProvider } from '#services/admin/admin_session_user_provider'

/**
 * Admin users log in to the web UI and the dashboard API with a session. The
 * session carries the admin's `session_version`; a stale one is logged out
 * (AdminSessionUserProvider), which is how logout and password changes end
 * sessions kept in a cookie.
 */
const authConfig = defineConfig({
  default: 'web',
  guards: {
    web: sessionGuard({
      useRememberMeTokens: false,
      provider: new AdminSessionUserProvider({
        model: () => import('#models/admin_user'),
      }),
    }),
  },
})

export default authConfig

declare module '@adonisjs/auth/types' {
  export interface Authenticators extends InferAuthenticators<typeof authConfig> {}
}
declare module '@adonisjs/core/types' {
  interface EventsList extends InferAuthEvents<Authenticators> {}
}
