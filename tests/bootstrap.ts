import { assert } from '@japa/assert'
import { apiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import type { Config } from '@japa/runner/types'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import testUtils from '@adonisjs/core/services/test_utils'
import { sessionApiClient } from '@adonisjs/session/plugins/api_client'
import { authApiClient } from '@adonisjs/auth/plugins/api_client'
import { shieldApiClient } from '@adonisjs/shield/plugins/api_client'
import { migrateDatabase } from '#tests/helpers/database'

/**
 * Japa plugins. The API client talks to the real HTTP server started for
 * the functional suite.
 */
export const plugins: Config['plugins'] = [
  assert(),
  apiClient(),
  pluginAdonisJS(app),
  sessionApiClient(app),
  authApiClient(app),
  shieldApiClient(),
]

/** Migrate once per run (bin/test.ts gives every run its own database). */
export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [() => migrateDatabase()],
  teardown: [],
}

export const configureSuite: Config['configureSuite'] = (suite) => {
  if (['browser', 'functional', 'e2e'].includes(suite.name)) {
    // The node:http server production runs (bin/server.ts), ReadFastPath included.
    return suite.setup(async () => {
      const { createHttpServer } = await import('#services/http_server')
      return testUtils.httpServer().start(createHttpServer)
    })
  }
}
