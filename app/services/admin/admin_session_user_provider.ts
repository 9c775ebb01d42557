import { SessionLucidUserProvider } from '@adonisjs/auth/session'
import type { SessionGuardUser } from '@adonisjs/auth/types/session'
import type AdminUser from '#models/admin_user'

type AdminUserModel = typeof AdminUser

/** `<admin id>.<session version>`, the value the session guard keeps in the session. */
const IDENTIFIER = /^(\d{1,15})\.(\d{1,15})$/

/**
 * The session user provider of the `web` guard. The session holds the admin's id
 * together with the `session_version` read at login, and a session whose version
 * no longer matches the row (logout, password change) or whose admin is gone is
 * treated as logged out. The cookie store keeps the whole session in the browser,
 * so this check is what ends a copied cookie. Sessions written before the version
 * existed (a bare id) are logged out once.
 */
export class AdminSessionUserProvider extends SessionLucidUserProvider<AdminUserModel> {
  /** The guard adapter; its id carries the version the admin's row has now. */
  async createUserForGuard(user: AdminUser): Promise<SessionGuardUser<AdminUser>> {
    const adapter = await super.createUserForGuard(user)
    // A freshly created row has not read the column's default (0) back.
    const version = user.sessionVersion ?? 0
    return {
      getId: () => `${adapter.getId()}.${version}`,
      getOriginal: () => user,
    }
  }

  /** The admin of a session value, or null when the value is malformed, unknown or stale. */
  async findById(identifier: string | number | BigInt): Promise<SessionGuardUser<AdminUser> | null> {
    const match = IDENTIFIER.exec(String(identifier))
    if (!match) return null
    const admin = await (await this.getModel()).find(Number(match[1]))
    if (!admin || admin.sessionVersion !== Number(match[2])) return null
    return this.createUserForGuard(admin)
  }
}
