import { readdirSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import StaticMiddleware from '@adonisjs/static/static_middleware'

/** Top-level names in public/, re-read at most every ENTRIES_TTL_MS (the UI build adds them). */
const ENTRIES_TTL_MS = 5_000
let entries: Set<string> = new Set()
let readAt = -Infinity

function publicEntries(): Set<string> {
  const now = performance.now()
  if (now - readAt < ENTRIES_TTL_MS) return entries
  readAt = now
  try {
    entries = new Set(readdirSync(app.publicPath()))
  } catch {
    entries = new Set()
  }
  return entries
}

/**
 * `public/` (the built admin UI) through @adonisjs/static, for GET and HEAD requests whose first
 * path segment exists in public/ only. Every other request (the APIs, /health, the admin pages)
 * skips the file system: the static middleware stat()ed each one, a fifth of a small API answer.
 */
export default class StaticFilesMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const method = ctx.request.method()
    if (method !== 'GET' && method !== 'HEAD') return next()
    const path = ctx.request.url()
    const end = path.indexOf('/', 1)
    const first = path.slice(1, end === -1 ? undefined : end)
    if (!first || !publicEntries().has(first)) return next()
    const files = await ctx.containerResolver.make(StaticMiddleware)
    return files.handle(ctx, next)
  }
}
