import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { HealthProbeService } from '#services/health_probe_service'

/**
 * A real, unreachable database connection: same driver and pool code as
 * the primary, pointed at nothing. The primary connection stays intact for
 * the other tests (the queue, cache and limiter hold it open).
 */
function addUnreachableConnection(name: string) {
  const primary = db.manager.get(db.primaryConnectionName)!.config
  const broken =
    primary.client === 'pg'
      ? { ...primary, connection: { connectionString: 'postgres://postgres@127.0.0.1:1/none' }, pool: { min: 0, max: 1, acquireTimeoutMillis: 1000 } }
      : { ...primary, connection: { filename: '/nonexistent-dir/hrvault.sqlite' } }
  db.manager.add(name, broken as any)
  return async () => {
    await db.manager.close(name)
    db.manager.release(name)
  }
}

class UnreachableDatabaseHealth extends HealthProbeService {
  protected connectionName = 'unreachable'
}

test.group('Server | health', () => {
  test('GET /health is 200 healthy with the database connected', async ({ client }) => {
    const response = await client.get('/health')
    response.assertStatus(200)
    response.assertBody({ status: 'healthy', database: 'connected' })
  })

  test('GET /health is 503 when the database does not answer, and recovers', async ({ client }) => {
    const release = addUnreachableConnection('unreachable')
    app.container.swap(HealthProbeService, () => new UnreachableDatabaseHealth())
    try {
      const down = await client.get('/health')
      down.assertStatus(503)
      down.assertBody({ status: 'unhealthy', database: 'disconnected' })
    } finally {
      app.container.restore(HealthProbeService)
      await release()
    }
    const back = await client.get('/health')
    back.assertStatus(200)
  })
})
