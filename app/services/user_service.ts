import User from '#models/user'
import UnknownUserException from '#exceptions/unknown_user_exception'
import { HotQueries } from '#services/hot_queries'
import { columnOf } from '#services/records/columns'

const lookupSql = new Map<string, string>()
/**
 * `select <columns> from users where external_id = ? limit 1`, built once per column list (column
 * names are known once the model is booted).
 */
function byExternalIdSql(columns: 'all' | 'ids'): string {
  let sql = lookupSql.get(columns)
  if (!sql) {
    const externalId = columnOf(User, 'externalId')
    const select = columns === 'all' ? '*' : `id, ${externalId} as "externalId"`
    lookupSql.set(columns, (sql = `select ${select} from ${User.table} where ${externalId} = ? limit 1`))
  }
  return sql
}

/** Who a data read is for: the internal id its rows carry and the API's `{user_id}`. */
export type UserRef = Pick<User, 'id' | 'externalId'>

/** Looks up and creates users by their external id (the API's `{user_id}`). */
export class UserService {
  /** The user, or UnknownUserException (404). */
  async findOrFail(externalId: string): Promise<User> {
    // A prepared statement on the driver (HotQueries), the row made into a model as the query
    // builder would (`User.findBy('externalId', …)`).
    const row = await HotQueries.first<Record<string, unknown>>(byExternalIdSql('all'), [externalId])
    if (!row) throw new UnknownUserException(externalId)
    return User.$createFromAdapterResult(row)!
  }

  /**
   * The user's two ids, or UnknownUserException (404): what a data read needs, without reading
   * the whole row (tokens, timestamps) or making a model of it.
   */
  async refOrFail(externalId: string): Promise<UserRef> {
    const row = await HotQueries.first<UserRef>(byExternalIdSql('ids'), [externalId])
    if (!row) throw new UnknownUserException(externalId)
    return row
  }

  /** The user, created on first sight (sync trigger, OAuth connect, admin UI). */
  async findOrCreate(externalId: string): Promise<User> {
    return User.firstOrCreate({ externalId }, { externalId, isActive: true })
  }
}
