import { OauthGrantSchema } from '#database/schema'
import { belongsTo } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import OauthClient from '#models/oauth_client'
import User from '#models/user'

/** An admin's approval of a client for one HRVault user and a set of scopes (a "connected app"). */
export default class OauthGrant extends OauthGrantSchema {
  static table = 'oauth_grants'

  @belongsTo(() => OauthClient, { foreignKey: 'oauthClientId' })
  declare client: BelongsTo<typeof OauthClient>

  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>

  /** The granted scopes as a list. */
  get scopeList(): string[] {
    return this.scopes.split(' ').filter(Boolean)
  }
}
