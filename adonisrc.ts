import { defineConfig } from '@adonisjs/core/app'
import { indexEntities } from '@adonisjs/core/generators'
import { indexPages } from '@adonisjs/inertia'

export default defineConfig({
  experimental: {},

  /*
  |--------------------------------------------------------------------------
  | Commands
  |--------------------------------------------------------------------------
  */
  commands: [
    () => import('@adonisjs/core/commands'),
    () => import('@adonisjs/lucid/commands'),
    () => import('@adonisjs/queue/commands'),
    () => import('@adonisjs/cache/commands'),
  ],

  /*
  |--------------------------------------------------------------------------
  | Service providers
  |--------------------------------------------------------------------------
  */
  providers: [
    () => import('@adonisjs/core/providers/app_provider'),
    () => import('@adonisjs/core/providers/hash_provider'),
    { file: () => import('@adonisjs/core/providers/repl_provider'), environment: ['repl', 'test'] },
    () => import('@adonisjs/core/providers/vinejs_provider'),
    () => import('@adonisjs/core/providers/edge_provider'),
    () => import('@adonisjs/lucid/database_provider'),
    () => import('@adonisjs/redis/redis_provider'),
    () => import('@adonisjs/session/session_provider'),
    () => import('@adonisjs/vite/vite_provider'),
    () => import('@adonisjs/shield/shield_provider'),
    () => import('@adonisjs/static/static_provider'),
    () => import('@adonisjs/cors/cors_provider'),
    () => import('@adonisjs/inertia/inertia_provider'),
    () => import('@adonisjs/auth/auth_provider'),
    () => import('@adonisjs/lock/lock_provider'),
    () => import('@adonisjs/limiter/limiter_provider'),
    () => import('@adonisjs/cache/cache_provider'),
    () => import('@adonisjs/queue/queue_provider'),
    () => import('#providers/app_provider'),
  ],

  /*
  |--------------------------------------------------------------------------
  | Preloads
  |--------------------------------------------------------------------------
  */
  preloads: [
    { file: () => import('#start/shutdown'), environment: ['web', 'console'] },
    () => import('#start/routes'),
    () => import('#start/kernel'),
    { file: () => import('#start/migrate'), environment: ['web'] },
    { file: () => import('#start/startup_notices'), environment: ['web'] },
    { file: () => import('#start/workers'), environment: ['web'] },
  ],

  /*
  |--------------------------------------------------------------------------
  | Tests
  |--------------------------------------------------------------------------
  */
  tests: {
    suites: [
      { files: ['tests/unit/**/*.spec.{ts,js}'], name: 'unit', timeout: 10000 },
      { files: ['tests/functional/**/*.spec.{ts,js}'], name: 'functional', timeout: 60000 },
      { files: ['tests/browser/**/*.spec.{ts,js}'], name: 'browser', timeout: 300000 },
    ],
    forceExit: true,
  },

  metaFiles: [
    { pattern: 'resources/views/**/*.edge', reloadServer: false },
    // Served by the docs pages (DocsAssetsService reads them from the app root).
    { pattern: 'resources/docs/**', reloadServer: false },
    // The captured answers the OpenAPI document shows as examples (OpenApiDocumentService reads it).
    { pattern: 'app/openapi/examples.json', reloadServer: false },
    { pattern: 'public/**', reloadServer: false },
  ],

  /*
  |--------------------------------------------------------------------------
  | Codegen
  |--------------------------------------------------------------------------
  |
  | The typed props of the admin UI, committed under .adonisjs/: `Data.*`
  | from app/transformers (client/data.d.ts) and each Inertia page's props
  | (server/pages.d.ts, which checks `inertia.render` against the page).
  | `node ace serve` and `node ace build` refresh them; `npm run codegen`
  | does it alone.
  |
  */
  hooks: {
    init: [
      indexEntities({
        events: { enabled: false },
        listeners: { enabled: false },
        controllers: { enabled: false },
        transformers: { enabled: true, withSharedProps: true },
      }),
      indexPages({ framework: 'vue3' }),
    ],
    buildStarting: [() => import('@adonisjs/vite/build_hook')],
  },
})
