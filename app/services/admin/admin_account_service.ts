import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import AdminUser from '#models/admin_user'
import { ClockService } from '#services/clock_service'
import { SetupTokenService } from '#services/admin/setup_token_service'

export type SetupOutcome =
  | { ok: true; admin: AdminUser }
  | { ok: false; reason: 'setup_closed' | 'invalid_token' }

/** Admin accounts: first-run setup (token-protected), CLI creation, login bookkeeping, ending sessions. */
@inject()
export class AdminAccountService {
  constructor(
    protected tokens: SetupTokenService,
    protected clock: ClockService
  ) {}

  /** Creates the first admin when the setup token is valid and no admin exists yet. */
  async setup(token: string, email: string, password: string): Promise<SetupOutcome> {
    if (await this.tokens.adminExists()) return { ok: false, reason: 'setup_closed' }
    if (!(await this.tokens.verify(token))) return { ok: false, reason: 'invalid_token' }
    const admin = await db.transaction(async (trx) => {
      const existing = await AdminUser.query({ client: trx }).select('id').first()
      if (existing) return null
      return AdminUser.create({ email, password }, { client: trx })
    })
    if (!admin) return { ok: false, reason: 'setup_closed' }
    await this.tokens.clear()
    return { ok: true, admin }
  }

  /** `node ace admin create`: any number of admins; the password is hashed by the model. */
  async create(email: string, password: string): Promise<AdminUser> {
    const admin = await AdminUser.create({ email: email.trim().toLowerCase(), password })
    await this.tokens.clear()
    return admin
  }

  async findByEmail(email: string) {
    return AdminUser.findBy('email', email.trim().toLowerCase())
  }

  /**
   * Sets a new password (`node ace admin password`) and ends every session of the
   * admin, in one transaction: a session opened with the old password never survives.
   */
  async setPassword(admin: AdminUser, password: string) {
    await db.transaction(async (trx) => {
      admin.useTransaction(trx)
      admin.password = password
      await admin.save()
      await this.bumpSessionVersion(admin.id, trx)
    })
    await admin.refresh()
  }

  /**
   * Ends every session of the admin (logout logs out everywhere): sessions carry the
   * version read at login, and the web guard refuses one that no longer matches.
   */
  async endSessions(admin: AdminUser) {
    await this.bumpSessionVersion(admin.id)
  }

  /** An atomic increment, so concurrent bumps never collapse into one. */
  protected async bumpSessionVersion(adminId: number, client?: TransactionClientContract) {
    await AdminUser.query({ client }).where('id', adminId).increment('session_version', 1)
  }

  /** Verifies credentials in constant time whether or not the account exists. */
  async verify(email: string, password: string): Promise<AdminUser | null> {
    try {
      return await AdminUser.verifyCredentials(email.trim().toLowerCase(), password)
    } catch {
      return null
    }
  }

  async touchLogin(admin: AdminUser) {
    admin.lastLoginAt = this.clock.now()
    await admin.save()
  }
}
