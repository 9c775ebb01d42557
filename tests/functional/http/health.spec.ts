import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'

/**
 * Points the primary connection at an unreachable database, for real: the
 * next query fails to connect through the same driver and pool.
 */
async function breakDatabase() {
  const name = db.primaryConnectionName
  const original = db.manager.get(name)!.config
  const broken =
    original.client === 'pg'
      ? { ...original, connection: { connectionString: 'postgres://postgres@127.0.0.1:1/none' }, pool: { min: 0, max: 1, acquireTimeoutMillis: 1000 } }
      : { ...original, connection: { filename: '/nonexistent-dir/hrvault.sqlite' } }
  await db.manager.close(name)
  db.manager.patch(name, broken as any)
  return async () => {
    await db.manager.close(name)
    db.manager.patch(name, original)
  }
}

test.group('Server | health', () => {
  test('GET /health is 200 healthy with the database connected', async ({ client }) => {
    const response = await client.get('/health')
    response.assertStatus(200)
    response.assertBody({ status: 'healthy', database: 'connected' })
  })

  test('GET /health is 503 when the database does not answer, and recovers', async ({ client }) => {
    const restore = await breakDatabase()
    try {
      const down = await client.get('/health')
      down.assertStatus(503)
      down.assertBody({ status: 'unhealthy', database: 'disconnected' })
    } finally {
      await restore()
    }
    const back = await client.get('/health')
    back.assertStatus(200)
  })
})
