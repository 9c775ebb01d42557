import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import app from '@adonisjs/core/services/app'

const require = createRequire(import.meta.url)
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`))

/**
 * The documentation UIs' assets, served from installed packages (no CDN:
 * self-hosters are often offline). Only these files can be requested.
 */
const ASSETS: Record<string, Record<string, { path: () => string; type: string; rewrite?: (text: string) => string }>> = {
  'swagger-ui': {
    'swagger-ui-bundle.js': { path: () => join(packageDir('swagger-ui-dist'), 'swagger-ui-bundle.js'), type: 'text/javascript' },
    'swagger-ui-standalone-preset.js': {
      path: () => join(packageDir('swagger-ui-dist'), 'swagger-ui-standalone-preset.js'),
      type: 'text/javascript',
    },
    'swagger-ui.css': { path: () => join(packageDir('swagger-ui-dist'), 'swagger-ui.css'), type: 'text/css' },
  },
  'redoc': {
    'redoc.standalone.js': {
      path: () => join(packageDir('redoc'), 'bundles', 'redoc.standalone.js'),
      type: 'text/javascript',
      // The menu footer's logo is the bundle's only outside request: served from here instead.
      rewrite: (text) => text.replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', '/schema/assets/hrvault/redocly-logo.svg'),
    },
  },
  'hrvault': {
    'swagger-init.js': { path: () => app.makePath('resources/docs/swagger-init.js'), type: 'text/javascript' },
    'redoc-init.js': { path: () => app.makePath('resources/docs/redoc-init.js'), type: 'text/javascript' },
    'docs.css': { path: () => app.makePath('resources/docs/docs.css'), type: 'text/css' },
    'favicon.svg': { path: () => app.makePath('resources/docs/favicon.svg'), type: 'image/svg+xml' },
    'redocly-logo.svg': { path: () => app.makePath('resources/docs/redocly-logo.svg'), type: 'image/svg+xml' },
  },
}

/** Rewritten assets, read once per process. */
const rewritten = new Map<string, string>()

export class DocsAssetsService {
  /** Absolute path and content type of an allowlisted asset, or null. */
  resolve(pkg: string, file: string): { path: string; type: string } | null {
    const asset = Object.hasOwn(ASSETS, pkg) && Object.hasOwn(ASSETS[pkg], file) ? ASSETS[pkg][file] : null
    return asset ? { path: asset.path(), type: asset.type } : null
  }

  /** The asset's text when it is served rewritten (outside URLs pointed here), else null: send the file. */
  async rewrittenText(pkg: string, file: string): Promise<string | null> {
    const asset = Object.hasOwn(ASSETS, pkg) && Object.hasOwn(ASSETS[pkg], file) ? ASSETS[pkg][file] : null
    if (!asset?.rewrite) return null
    const key = `${pkg}/${file}`
    if (!rewritten.has(key)) rewritten.set(key, asset.rewrite(await readFile(asset.path(), 'utf8')))
    return rewritten.get(key)!
  }

  swaggerPage() {
    return page(
      'HRVault API — Swagger UI',
      '<link rel="stylesheet" href="/schema/assets/swagger-ui/swagger-ui.css"><link rel="stylesheet" href="/schema/assets/hrvault/docs.css">',
      '<div id="swagger-ui"></div>' +
        '<script src="/schema/assets/swagger-ui/swagger-ui-bundle.js"></script>' +
        '<script src="/schema/assets/swagger-ui/swagger-ui-standalone-preset.js"></script>' +
        '<script src="/schema/assets/hrvault/swagger-init.js"></script>'
    )
  }

  redocPage() {
    return page(
      'HRVault API — ReDoc',
      '<link rel="stylesheet" href="/schema/assets/hrvault/docs.css">',
      '<div id="redoc"></div>' +
        '<script src="/schema/assets/redoc/redoc.standalone.js"></script>' +
        '<script src="/schema/assets/hrvault/redoc-init.js"></script>'
    )
  }
}

const page = (title: string, head: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><link rel="icon" href="/schema/assets/hrvault/favicon.svg">${head}</head><body>${body}</body></html>`
