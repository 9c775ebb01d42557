import app from '@adonisjs/core/services/app'
import { redisJobKeys } from '#services/ops/queue_service'

/**
 * Empties the job queues of the Redis backend (`jobs::<queue>::pending|active|delayed` and the job
 * data): with the database backend the jobs are rows that a truncate already removes, so a test
 * that starts from an empty database starts from empty queues on both backends.
 */
export async function emptyRedisJobQueues() {
  if (app.config.get<{ default: string }>('queue').default !== 'redis') return
  const { default: redis } = await import('@adonisjs/redis/services/main')
  const connection = redis.connection('main')
  for await (const keys of redisJobKeys(connection)) await connection.del(...keys)
}
