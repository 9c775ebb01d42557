import factory from '@adonisjs/lucid/factories'
import User from '#models/user'

/** A user without a provider token; merge `externalId` for a known id. */
export const UserFactory = factory
  .define(User, ({ faker }) => ({
    externalId: `user_${faker.string.alphanumeric(10)}`,
    isActive: true,
  }))
  .build()
