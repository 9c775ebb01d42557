import { configProvider } from '@adonisjs/core'
import type { ApplicationService } from '@adonisjs/core/types'
import { stores } from '@adonisjs/limiter'
import type {
  LimiterConsumptionOptions,
  LimiterManagerStoreFactory,
  LimiterStoreContract,
} from '@adonisjs/limiter/types'

type DatabaseStoreConfig = Parameters<typeof stores.database>[0]

/**
 * The limiter's database store, bound to the client `db.connection()` gives at each call instead
 * of the one it gave when the limiter was first used. The limiter manager caches stores for the
 * life of the process, so a store created outside a transaction would otherwise keep writing past
 * a global transaction (the tests' per-test rollback), and on SQLite, whose pool is one
 * connection, wait for it forever. In production `db.connection()` is always the pool, so this is
 * one store per limiter, as before.
 */
export function connectionFollowingDatabaseStore(config: DatabaseStoreConfig) {
  return configProvider.create(async (app: ApplicationService): Promise<LimiterManagerStoreFactory> => {
    const db = await app.container.make('lucid.db')
    const databaseStore = (await configProvider.resolve<LimiterManagerStoreFactory>(app, stores.database(config)))!
    return (options: LimiterConsumptionOptions) => {
      // One store per underlying knex client (the pool, or a transaction).
      const byClient = new WeakMap<object, LimiterStoreContract>()
      const current = () => {
        const client = db.connection(config.connectionName).getWriteClient()
        let store = byClient.get(client)
        if (!store) byClient.set(client, (store = databaseStore(options)))
        return store
      }
      return new ConnectionFollowingStore(current(), current)
    }
  })
}

/** Delegates every operation to the store of the current connection. */
class ConnectionFollowingStore implements LimiterStoreContract {
  constructor(
    protected first: LimiterStoreContract,
    protected current: () => LimiterStoreContract
  ) {}

  get name() {
    return this.first.name
  }
  get requests() {
    return this.first.requests
  }
  get duration() {
    return this.first.duration
  }
  get blockDuration() {
    return this.first.blockDuration
  }
  consume(key: string | number, amount?: number) {
    return this.current().consume(key, amount)
  }
  increment(key: string | number, amount?: number) {
    return this.current().increment(key, amount)
  }
  decrement(key: string | number, amount?: number) {
    return this.current().decrement(key, amount)
  }
  block(key: string | number, duration: string | number) {
    return this.current().block(key, duration)
  }
  set(key: string | number, requests: number, duration?: string | number) {
    return this.current().set(key, requests, duration)
  }
  delete(key: string | number) {
    return this.current().delete(key)
  }
  deleteInMemoryBlockedKeys() {
    this.current().deleteInMemoryBlockedKeys?.()
  }
  clear() {
    return this.current().clear()
  }
  get(key: string | number) {
    return this.current().get(key)
  }
}
