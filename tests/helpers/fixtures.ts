import { randomBytes } from 'node:crypto'
import { DateTime } from 'luxon'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import User from '#models/user'
import { ApiKeyService } from '#services/auth/api_key_service'

/** A user with a random external id. */
export async function createUser(externalId = `user_${randomBytes(4).toString('hex')}`) {
  return User.create({ externalId, isActive: true })
}

/** A user plus a key scoped to them; returns the plain key. */
export async function userWithApiKey() {
  const user = await createUser()
  const { plain } = await (await app.container.make(ApiKeyService)).create('test key', user.externalId)
  return { user, apiKey: plain }
}

/** A service key (no user scope). */
export async function serviceApiKey(name = 'service key') {
  return (await (await app.container.make(ApiKeyService)).create(name, null)).plain
}

/** ISO date `n` days before today in APP_TIMEZONE. */
export function daysAgo(n: number) {
  return DateTime.now().setZone(env.get('APP_TIMEZONE', 'UTC')).startOf('day').minus({ days: n }).toISODate()!
}
