import pg from 'pg'

/** The node-postgres client internals read here: its socket, to cork it, and whether it is connected. */
type PipelinedClient = pg.Client & {
  connection: { stream: { cork(): void; uncork(): void } }
  _connected?: boolean
  ref(): void
  unref(): void
}

/** A prepared statement as node-postgres names it. */
export interface PreparedStatement {
  name: string
  text: string
}

/** Clients per pipeline: two backends, so PostgreSQL can run statements on both cores of a small host. */
const CLIENTS = 2

/**
 * Short read statements sent on a few PostgreSQL connections of their own in node-postgres's
 * pipeline mode: a statement goes out without waiting for the one before it to be answered, and
 * the statements of one event-loop turn go out in one socket write (the socket is corked until
 * the turn's check phase). Each statement still ends with its own Sync, so it runs as its own
 * implicit transaction, sees every commit made before it was sent and fails alone.
 *
 * For statements that take a fraction of a millisecond and answer a small result (a data-version
 * read, the health probe, a stored answer): one slow statement would hold up those behind it on its
 * connection, so scans and exports stay on the pool. Measured against a pooled client per statement
 * (profile note "Twenty-third look"): the uncached year of sleep on PostgreSQL +11 %, its cached
 * answer +7 %; the write that wakes the backend is one per turn instead of one per statement, and no
 * pool acquire and release per statement.
 *
 * A client that fails or ends is dropped, its waiting statements rejected (node-postgres does), and
 * a new one is connected by the next statement. A client holds the process open only while it has
 * statements on the way, so an idle pipeline never keeps a command or a test run from exiting.
 */
export class PgPipeline {
  #clients: Array<PipelinedClient | null> = Array.from({ length: CLIENTS }, () => null)
  #pending = new Map<PipelinedClient, number>()
  #corked = new Set<PipelinedClient>()
  #next = 0
  #closed = false

  /** `config`: the connection settings of the Lucid connection the pipeline stands beside. */
  constructor(protected config: pg.ClientConfig) {}

  /** Runs `statement` with `values`; resolves the result's rows. */
  query<T>(statement: PreparedStatement, values: unknown[]): Promise<T[]> {
    if (this.#closed) return Promise.reject(new Error('The PostgreSQL pipeline is closed'))
    const client = this.#client()
    this.#cork(client)
    this.#started(client)
    return new Promise<T[]>((resolve, reject) => {
      client.query({ ...statement, values }, (error: Error | null, result: pg.QueryResult) => {
        this.#finished(client)
        if (error) reject(error)
        else resolve(result.rows as T[])
      })
    })
  }

  /** Ends every client (the pipeline is not used again). */
  async close(): Promise<void> {
    this.#closed = true
    const clients = this.#clients.filter((client) => client !== null)
    this.#clients.fill(null)
    await Promise.all(clients.map((client) => client.end().catch(() => {})))
  }

  /** The next client in turn, connected on first use or after its predecessor failed. */
  #client(): PipelinedClient {
    const index = this.#next
    this.#next = (index + 1) % CLIENTS
    const known = this.#clients[index]
    if (known) return known
    const client = new pg.Client({ ...this.config, pipeline: true } as pg.ClientConfig) as PipelinedClient
    const drop = () => {
      if (this.#clients[index] === client) this.#clients[index] = null
      this.#pending.delete(client)
    }
    client.on('error', drop)
    client.on('end', drop)
    // A failed connect rejects the statements queued on the client (node-postgres), and `error` drops it.
    client.connect().catch(drop)
    this.#clients[index] = client
    return client
  }

  /** Holds the client's writes until the turn's check phase: the turn's statements go out together. */
  #cork(client: PipelinedClient) {
    if (this.#corked.has(client) || !client._connected) return
    const stream = client.connection.stream
    stream.cork()
    this.#corked.add(client)
    setImmediate(() => {
      this.#corked.delete(client)
      stream.uncork()
    })
  }

  #started(client: PipelinedClient) {
    const pending = this.#pending.get(client) ?? 0
    if (pending === 0) client.ref()
    this.#pending.set(client, pending + 1)
  }

  #finished(client: PipelinedClient) {
    const pending = (this.#pending.get(client) ?? 1) - 1
    if (pending > 0) {
      this.#pending.set(client, pending)
      return
    }
    this.#pending.delete(client)
    client.unref()
  }
}
