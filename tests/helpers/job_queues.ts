import app from '@adonisjs/core/services/app'

/**
 * Empties the job queues of the Redis backend (`jobs::<queue>::pending|active|delayed` and the job
 * data): with the database backend the jobs are rows that a truncate already removes, so a test
 * that starts from an empty database starts from empty queues on both backends.
 */
export async function emptyRedisJobQueues() {
  if (app.config.get<{ default: string }>('queue').default !== 'redis') return
  const { default: redis } = await import('@adonisjs/redis/services/main')
  const connection = redis.connection('main')
  const prefix = String(connection.ioConnection.options.keyPrefix ?? '')
  let cursor = '0'
  do {
    // SCAN MATCH sees whole key names; commands add the prefix themselves.
    const [next, keys] = await connection.scan(cursor, 'MATCH', `${prefix}jobs::*`, 'COUNT', 500)
    cursor = next
    if (keys.length > 0) await connection.del(...keys.map((key) => key.slice(prefix.length)))
  } while (cursor !== '0')
}
