/*
|--------------------------------------------------------------------------
| Start-up notices
|--------------------------------------------------------------------------
|
| Says at start whether the analytics API is open (no key exists and the
| server listens on loopback only) or requires a key (DESIGN §4).
|
*/
import logger from '@adonisjs/core/services/logger'
// Preloads are imported concurrently: wait for the schema before the first query (fresh install).
import '#start/migrate'
import { ApiKeyService } from '#services/auth/api_key_service'
import { listensOnLoopbackOnly } from '#middleware/api_key_middleware'

if (await new ApiKeyService().anyExists()) {
  logger.info('Analytics API: an X-API-Key is required')
} else if (listensOnLoopbackOnly()) {
  logger.warn(
    'Analytics API is OPEN: no API key exists and the server listens on loopback only. Create one with `node ace api-key create --name <label>` to require keys.'
  )
} else {
  logger.warn('Analytics API: no API key exists yet, so every request is refused. Create one with `node ace api-key create --name <label>`.')
}
