/*
|--------------------------------------------------------------------------
| Start-up notices
|--------------------------------------------------------------------------
|
| What the operator must know when the web server starts: whether the
| analytics API is open (no key exists and the server listens on loopback
| only) or requires a key (DESIGN §4), and, while no admin exists, a fresh
| one-time setup token for the admin UI (printed once the server listens).
|
*/
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
// Preloads are imported concurrently: wait for the schema before the first query (fresh install).
import '#start/migrate'
import { ApiKeyService } from '#services/auth/api_key_service'
import { SetupAnnouncer } from '#services/admin/setup_announcer'
import { listensOnLoopbackOnly } from '#middleware/api_key_middleware'

const apiKeys = await app.container.make(ApiKeyService)
if (await apiKeys.anyExists()) {
  logger.info('Analytics API: an X-API-Key is required')
} else if (listensOnLoopbackOnly()) {
  logger.warn(
    'Analytics API is OPEN: no API key exists and the server listens on loopback only. Create one with `node ace api-key create --name <label>` to require keys.'
  )
} else {
  logger.warn('Analytics API: no API key exists yet, so every request is refused. Create one with `node ace api-key create --name <label>`.')
}

app.ready(async () => {
  const announcer = await app.container.make(SetupAnnouncer)
  await announcer.announce()
})
