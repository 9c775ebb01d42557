import db from '@adonisjs/lucid/services/db'

/** The SQL statements the application sends on the default connection while `fn` runs. */
export async function sqlDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const knex = db.connection().getWriteClient()
  const seen: string[] = []
  const listener = (query: { sql: string }) => seen.push(query.sql)
  knex.on('query', listener)
  try {
    await fn()
  } finally {
    knex.removeListener('query', listener)
  }
  return seen
}
