import { createHash } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { ClientConfig } from 'pg'
import { PgPipeline } from '#services/pg_pipeline'

/** The rows of a raw query's result, whatever the dialect (SQLite gives an array, PostgreSQL `{ rows }`). */
export function rawRows<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]
}

/** The parts of a better-sqlite3 connection and statement used here. */
interface SqliteStatement {
  get(...bindings: unknown[]): unknown
  all(...bindings: unknown[]): unknown[]
}
interface SqliteConnection {
  open: boolean
  inTransaction: boolean
  prepare(sql: string): SqliteStatement
}
/** The parts of a node-postgres client used here. */
interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }, callback: (error: Error | null, result: PgResult) => void): void
}
/** The knex client of a Lucid connection (its pool and dialect). */
interface KnexClient {
  driverName: string
  acquireConnection(): Promise<unknown>
  releaseConnection(connection: unknown): Promise<unknown>
}

/** Prepared statements of one SQLite connection, by SQL text. */
const sqliteStatements = new WeakMap<SqliteConnection, Map<string, SqliteStatement>>()
/** Each SQL text's PostgreSQL text ($1…) and statement name, prepared once per pooled client. */
const pgStatements = new Map<string, { name: string; text: string }>()
/** The pool's SQLite connection, per Lucid connection name (SQLite pools hold exactly one). */
const sqliteConnections = new Map<string, SqliteConnection>()

/** The knex client of each connected Lucid connection, kept while the manager holds the same connection. */
const knexClients = new Map<string, { connection: unknown; client: KnexClient | null }>()

function knexClientOf(connectionName: string): KnexClient | null {
  const known = knexClients.get(connectionName)
  if (known && known.connection === db.manager.get(connectionName)?.connection) return known.client
  db.connection(connectionName) // connects the pool on first use
  const connection = db.manager.get(connectionName)?.connection as { client?: { client: KnexClient } } | undefined
  const client = connection?.client?.client ?? null
  knexClients.set(connectionName, { connection, client })
  return client
}

/** Fetches the pool's SQLite connection and keeps it (callers use a kept one while it is open). */
async function fetchSqliteConnection(connectionName: string, client: KnexClient): Promise<SqliteConnection> {
  const connection = (await client.acquireConnection()) as SqliteConnection
  await client.releaseConnection(connection)
  sqliteConnections.set(connectionName, connection)
  return connection
}

/** The rows of a prepared statement on the connection; undefined while a transaction is open on it (its writes are not committed). */
function sqliteRows<T>(connection: SqliteConnection, sql: string, bindings: unknown[]): T[] | undefined {
  if (connection.inTransaction) return undefined
  let statements = sqliteStatements.get(connection)
  if (!statements) sqliteStatements.set(connection, (statements = new Map()))
  let statement = statements.get(sql)
  if (!statement) statements.set(sql, (statement = connection.prepare(sql)))
  return statement.all(...bindings) as T[]
}

function pgStatement(sql: string) {
  let statement = pgStatements.get(sql)
  if (!statement) {
    let index = 0
    const text = sql.replace(/\?/g, () => `$${++index}`)
    statement = { name: `hv_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`, text }
    pgStatements.set(sql, statement)
  }
  return statement
}

/** What a node-postgres query's callback gives. */
interface PgResult {
  rows: unknown[]
  rowCount: number | null
}

/**
 * A named prepared statement on a connection of the pool (or the transaction) behind `knexClient`,
 * through the driver's callback form, resolving only what `take` picks from the result. Its
 * promise form kept every result reachable past the young generation's collections: a year of
 * sleep (61 kB of rows) promoted 57 kB per answer to the old generation and the web process ran 15
 * full collections per 3 000 answers, against 1.1 kB and none this way (`--trace-gc-nvp`, profile
 * note "Eleventh look").
 */
async function runPrepared<R>(knexClient: KnexClient, sql: string, bindings: unknown[], take: (result: PgResult) => R): Promise<R> {
  const pg = (await knexClient.acquireConnection()) as PgClient
  try {
    return await new Promise<R>((resolve, reject) => {
      pg.query({ ...pgStatement(sql), values: bindings }, (error, result) => (error ? reject(error) : resolve(take(result))))
    })
  } finally {
    await knexClient.releaseConnection(pg)
  }
}

/**
 * A statement run as a named prepared statement on the PostgreSQL connection of a Lucid client
 * (a transaction's own connection inside one, else a pooled one): PostgreSQL parses and plans it
 * once per connection instead of on every call. For the sync's upserts, whose statement is the same
 * for every batch of a table and whose planning (a CTE with an insert, an anti-join and a conflict
 * clause over a dozen arrays) was a large part of a small batch's cost.
 */
export function pgPrepared(client: QueryClientContract, sql: string, bindings: unknown[]): Promise<{ rows: unknown[]; rowCount: number }> {
  const knexClient = (client.getWriteClient() as unknown as { client: KnexClient }).client
  return runPrepared(knexClient, sql, bindings, (result) => ({ rows: result.rows, rowCount: result.rowCount ?? 0 }))
}

/** Each PostgreSQL connection's pipeline of short reads, kept while the manager holds the same connection. */
const pipelines = new Map<string, { connection: unknown; pipeline: PgPipeline }>()

let closingRegistered = false

function pipelineOf(connectionName: string): PgPipeline {
  const connection = db.manager.get(connectionName)?.connection
  const known = pipelines.get(connectionName)
  if (known && known.connection === connection) return known.pipeline
  // The Lucid connection was closed and made again (its settings may have changed): so is the pipeline.
  void known?.pipeline.close()
  const settings = db.manager.get(connectionName)!.config.connection as string | ClientConfig
  const pipeline = new PgPipeline(typeof settings === 'string' ? { connectionString: settings } : settings)
  if (!closingRegistered) app.terminating(closePipelines)
  closingRegistered = true
  pipelines.set(connectionName, { connection, pipeline })
  return pipeline
}

/** Ends the pipelines of short reads (the application is shutting down). */
export async function closePipelines(): Promise<void> {
  const open = [...pipelines.values()]
  pipelines.clear()
  await Promise.all(open.map(({ pipeline }) => pipeline.close()))
}

/** How a prepared read reaches PostgreSQL: a pipeline of short reads or a pooled client. */
type PgLane = 'pipeline' | 'pool'

async function preparedRows<T>(sql: string, bindings: unknown[], connectionName: string, lane: PgLane): Promise<T[]> {
  if (!db.connectionGlobalTransactions.has(connectionName)) {
    const client = knexClientOf(connectionName)
    if (client?.driverName === 'better-sqlite3') {
      const known = sqliteConnections.get(connectionName)
      const rows = sqliteRows<T>(known?.open ? known : await fetchSqliteConnection(connectionName, client), sql, bindings)
      if (rows) return rows
    } else if (client?.driverName === 'pg') {
      if (lane === 'pipeline') return pipelineOf(connectionName).query<T>(pgStatement(sql), bindings)
      return runPrepared(client, sql, bindings, (result) => result.rows as T[])
    }
  }
  return rawRows<T>(await db.connection(connectionName).rawQuery(sql, bindings as never[]))
}

/**
 * Reads on the request path as prepared statements on the driver, without the query builder: its
 * compile, pool and event work were most of such a request's cost. SQLite runs the statement
 * synchronously on the pool's one connection while no transaction is open on it (inside one it
 * would see uncommitted writes). Inside a global transaction (tests) and whenever the driver is
 * not at hand, the query goes through Lucid as before, so results are the same either way.
 *
 * On PostgreSQL, `all` and `first` are for short reads (the data version, the health probe, a user
 * by id, a stored answer or a window's stored lines): they go through the connection's pipeline
 * (PgPipeline). `scan` is for reads that can run long or answer much (a history's series, an
 * export's page): a pooled client of its own, so it never holds up the short reads.
 */
export const HotQueries = {
  all<T>(sql: string, bindings: unknown[] = [], connectionName = db.primaryConnectionName): Promise<T[]> {
    return preparedRows<T>(sql, bindings, connectionName, 'pipeline')
  },

  async first<T>(sql: string, bindings: unknown[] = [], connectionName?: string): Promise<T | undefined> {
    return (await HotQueries.all<T>(sql, bindings, connectionName))[0]
  },

  scan<T>(sql: string, bindings: unknown[] = [], connectionName = db.primaryConnectionName): Promise<T[]> {
    return preparedRows<T>(sql, bindings, connectionName, 'pool')
  },
}
