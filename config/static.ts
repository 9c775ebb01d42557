import { defineConfig } from '@adonisjs/static'

/**
 * Serves `public/` (the built admin UI under `public/assets`). Hashed asset
 * files are immutable, so they may be cached for a long time.
 */
const staticServerConfig = defineConfig({
  enabled: true,
  etag: true,
  lastModified: true,
  dotFiles: 'ignore',
  headers: (path) => {
    if (path.includes('/assets/')) {
      return { 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' }
    }
    return { 'X-Content-Type-Options': 'nosniff' }
  },
})

export default staticServerConfig
