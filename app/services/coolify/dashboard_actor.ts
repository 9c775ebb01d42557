import type { HttpContext } from '@adonisjs/core/http'
import type { DashboardActor } from '#services/coolify/types'

/**
 * The logged-in admin as the actor of audited dashboard actions. The admin API middleware
 * has already answered 401 for a visitor without a session, so a user is always present.
 */
export function dashboardActor(ctx: Pick<HttpContext, 'auth'>): DashboardActor {
  const user = ctx.auth.use('web').getUserOrFail() as unknown as { id: number; email: string }
  return { id: user.id, email: user.email }
}
