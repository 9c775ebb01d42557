import User from '#models/user'
import UnknownUserException from '#exceptions/unknown_user_exception'

/** Looks up and creates users by their external id (the API's `{user_id}`). */
export class UserService {
  /** The user, or UnknownUserException (404). */
  async findOrFail(externalId: string): Promise<User> {
    const user = await User.findBy('externalId', externalId)
    if (!user) throw new UnknownUserException(externalId)
    return user
  }

  /** The user, created on first sight (sync trigger, OAuth connect, admin UI). */
  async findOrCreate(externalId: string): Promise<User> {
    return User.firstOrCreate({ externalId }, { externalId, isActive: true })
  }
}
