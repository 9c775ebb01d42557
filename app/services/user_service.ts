import User from '#models/user'
import UnknownUserException from '#exceptions/unknown_user_exception'
import { HotQueries } from '#services/hot_queries'
import { columnOf } from '#services/records/columns'

let findByExternalId: string | undefined
/** `User.findBy('externalId', …)`'s SQL (column names are known once the model is booted). */
const findByExternalIdSql = () => (findByExternalId ??= `select * from ${User.table} where ${columnOf(User, 'externalId')} = ? limit 1`)

let refByExternalId: string | undefined
/** The same lookup reading only the two ids. */
const refByExternalIdSql = () =>
  (refByExternalId ??= `select id, ${columnOf(User, 'externalId')} as "externalId" from ${User.table} where ${columnOf(User, 'externalId')} = ? limit 1`)

/** Who a data read is for: the internal id its rows carry and the API's `{user_id}`. */
export type UserRef = Pick<User, 'id' | 'externalId'>

/** Looks up and creates users by their external id (the API's `{user_id}`). */
export class UserService {
  /** The user, or UnknownUserException (404). */
  async findOrFail(externalId: string): Promise<User> {
    // Every data read starts here: a prepared statement on the driver (HotQueries), the row made
    // into a model as the query builder would.
    const row = await HotQueries.first<Record<string, unknown>>(findByExternalIdSql(), [externalId])
    if (!row) throw new UnknownUserException(externalId)
    return User.$createFromAdapterResult(row)!
  }

  /**
   * The user's two ids, or UnknownUserException (404): what a data read needs, without reading
   * the whole row (tokens, timestamps) or making a model of it.
   */
  async refOrFail(externalId: string): Promise<UserRef> {
    const row = await HotQueries.first<UserRef>(refByExternalIdSql(), [externalId])
    if (!row) throw new UnknownUserException(externalId)
    return row
  }

  /** The user, created on first sight (sync trigger, OAuth connect, admin UI). */
  async findOrCreate(externalId: string): Promise<User> {
    return User.firstOrCreate({ externalId }, { externalId, isActive: true })
  }
}
