import { AdminUserSchema } from '#database/schema'
import hash from '@adonisjs/core/services/hash'
import { compose } from '@adonisjs/core/helpers'
import { withAuthFinder } from '@adonisjs/auth/mixins/lucid'

const AuthFinder = withAuthFinder(() => hash.use('scrypt'), {
  uids: ['email'],
  passwordColumnName: 'password',
})

/** Someone who logs in to the admin UI and the dashboard API. */
export default class AdminUser extends compose(AdminUserSchema, AuthFinder) {
  static table = 'admin_users'
}
