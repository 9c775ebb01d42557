import { defineConfig } from '@adonisjs/vite'

/**
 * The admin UI bundle. `npm start` serves the manifest built into
 * `public/assets` (built by `prestart` when missing); `node ace serve` and
 * the test runner use the Vite dev server in middleware mode instead.
 */
const viteBackendConfig = defineConfig({
  buildDirectory: 'public/assets',
  assetsUrl: '/assets',
})

export default viteBackendConfig
