import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import vine from '@vinejs/vine'
import { AdminAccountService } from '#services/admin/admin_account_service'
import { SetupTokenService } from '#services/admin/setup_token_service'

const emailSchema = vine.create(vine.string().trim().toLowerCase().email().maxLength(254))

/**
 * `node ace admin create --email you@example.com` creates an admin (the
 * password is asked for, or read from `--password`); `admin password --email`
 * resets one and ends all its sessions; `admin setup-token` prints a fresh
 * one-time setup token while no admin exists.
 */
export default class AdminCommand extends BaseCommand {
  static commandName = 'admin'
  static description = 'Manage admin accounts of the web UI (create | password | setup-token)'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'create, password or setup-token' })
  declare action: string

  @flags.string({ description: 'Email of the admin' })
  declare email?: string

  @flags.string({ description: 'Password (at least 12 characters); asked for when omitted' })
  declare password?: string

  async run() {
    switch (this.action) {
      case 'create':
        return this.create(await this.app.container.make(AdminAccountService))
      case 'password':
        return this.resetPassword(await this.app.container.make(AdminAccountService))
      case 'setup-token':
        return this.setupToken(await this.app.container.make(SetupTokenService))
      default:
        this.logger.error(`Unknown action "${this.action}". Use create, password or setup-token.`)
        this.exitCode = 1
    }
  }

  protected async readEmail(): Promise<string | null> {
    if (!this.email) {
      this.logger.error('Missing --email <address>')
      this.exitCode = 1
      return null
    }
    try {
      return await emailSchema.validate(this.email)
    } catch {
      this.logger.error(`"${this.email}" is not a valid email address`)
      this.exitCode = 1
      return null
    }
  }

  protected async readPassword(): Promise<string | null> {
    const password: string =
      this.password ??
      ((await this.prompt.secure('Password (at least 12 characters)', {
        validate: (value) => value.length >= 12 || 'Use at least 12 characters',
      })) as string)
    if (password.length < 12 || password.length > 200) {
      this.logger.error('The password must have 12 to 200 characters')
      this.exitCode = 1
      return null
    }
    return password
  }

  protected async create(accounts: AdminAccountService) {
    const email = await this.readEmail()
    if (!email) return
    if (await accounts.findByEmail(email)) {
      this.logger.error(`An admin with the email ${email} already exists`)
      this.exitCode = 1
      return
    }
    const password = await this.readPassword()
    if (!password) return
    await accounts.create(email, password)
    this.logger.success(`Created admin ${email}. Log in at /admin/login.`)
  }

  protected async resetPassword(accounts: AdminAccountService) {
    const email = await this.readEmail()
    if (!email) return
    const admin = await accounts.findByEmail(email)
    if (!admin) {
      this.logger.error(`No admin with the email ${email}`)
      this.exitCode = 1
      return
    }
    const password = await this.readPassword()
    if (!password) return
    await accounts.setPassword(admin, password)
    this.logger.success(`Password of ${email} changed; its sessions are ended`)
  }

  protected async setupToken(tokens: SetupTokenService) {
    const token = await tokens.issue()
    if (!token) {
      this.logger.info('An admin already exists; setup is closed. Use `admin create` instead.')
      return
    }
    this.logger.log(`One-time setup token (open /admin/setup): ${token}`)
  }
}
