import app from '@adonisjs/core/services/app'
import string from '@adonisjs/core/helpers/string'
import type { ShieldConfig } from '@adonisjs/shield/types'

let headers: Record<string, string> | undefined

/**
 * `nosniff`, `X-Frame-Options` and HSTS as config/shield.ts defines them. Shield sets them on
 * matched routes only; these copies also reach unmatched paths, static files and the answers
 * the Node server writes itself (undecodable URLs, oversized headers) and ReadFastPath's answers.
 */
export function securityHeaders(): Record<string, string> {
  if (headers) return headers
  const config = app.config.get<ShieldConfig>('shield', {} as ShieldConfig)
  const built: Record<string, string> = {}
  if (config.contentTypeSniffing?.enabled) built['X-Content-Type-Options'] = 'nosniff'
  if (config.xFrame?.enabled) {
    const xFrame = config.xFrame as { action?: string; domain?: string }
    const action = xFrame.action ?? 'SAMEORIGIN'
    built['X-Frame-Options'] = action === 'ALLOW-FROM' ? `${action} ${xFrame.domain}` : action
  }
  if (config.hsts?.enabled) {
    let value = `max-age=${string.seconds.parse(config.hsts.maxAge ?? '180 days')}`
    if (config.hsts.includeSubDomains) value += '; includeSubDomains'
    if (config.hsts.preload) value += '; preload'
    built['Strict-Transport-Security'] = value
  }
  return (headers = built)
}
