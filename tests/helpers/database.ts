import testUtils from '@adonisjs/core/services/test_utils'
import { emptyRedisJobQueues } from '#tests/helpers/job_queues'

/**
 * Empties every table and the Redis job queues now. `testUtils.db().truncate()` only migrates and
 * returns the function that truncates, so awaiting it alone leaves every row in place.
 */
export async function emptyDatabase() {
  const truncate = await testUtils.db().truncate()
  await truncate()
  await emptyRedisJobQueues()
}
