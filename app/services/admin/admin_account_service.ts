import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import AdminUser from '#models/admin_user'
import { ClockService } from '#services/clock_service'
import { SetupTokenService } from '#services/admin/setup_token_service'

export type SetupOutcome =
  | { ok: true; admin: AdminUser }
  | { ok: false; reason: 'setup_closed' | 'invalid_token' }

/** Admin accounts: first-run setup (token-protected), CLI creation, login bookkeeping. */
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

  async setPassword(admin: AdminUser, password: string) {
    admin.password = password
    await admin.save()
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
