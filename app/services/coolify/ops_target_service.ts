import { inject } from '@adonisjs/core'
import { isIP } from 'node:net'
import env from '#start/env'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { ProjectScopeService } from '#services/coolify/project_scope_service'
import { bareHostname, isPublicAddress, OPS_PREFIX_PATTERN, refuseOpsOrigin } from '#services/coolify/ops_target_policy'
import type { CoolifyApplication, CoolifyEnvVar } from '#services/coolify/types'

/** Where and how to reach the ops API of one deployed application. Kept server-side. */
export interface OpsTarget {
  configured: true
  applicationUuid: string
  applicationName: string | null
  /** First https domain + OPS_PREFIX, no trailing slash. */
  baseUrl: string
  /** OPS_TOKEN of the application: never leaves the server. */
  token: string
  /** COOLIFY_OPS_ALLOW_PRIVATE when resolved: the connection enforces the same decision. */
  allowPrivate: boolean
}

export interface OpsTargetMissing {
  configured: false
  applicationUuid: string
  reason: 'no_https_domain' | 'target_not_allowed' | 'no_ops_token' | 'ops_token_not_readable' | 'invalid_ops_prefix'
  message: string
}

const DEFAULT_PREFIX = '/ops'

/** `localhost` or a loopback, private or link-local IP: the only hosts plain http may reach. */
const isLocalHost = (url: URL) => {
  const host = bareHostname(url)
  return host === 'localhost' || (isIP(host) !== 0 && !isPublicAddress(host))
}

/**
 * The first usable domain of Coolify's comma-separated `fqdn`: the first https URL, or an
 * http URL on a loopback or private host (local development and tests, used only with
 * COOLIFY_OPS_ALLOW_PRIVATE). An http domain elsewhere would send the ops token in clear
 * text over the internet, so it is never used.
 */
export function firstOpsOrigin(fqdn: string | null | undefined): URL | null {
  const urls = String(fqdn ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      try {
        return new URL(part)
      } catch {
        return null
      }
    })
    .filter((u): u is URL => u !== null)
  return (
    urls.find((u) => u.protocol === 'https:') ??
    urls.find((u) => u.protocol === 'http:' && isLocalHost(u)) ??
    null
  )
}

/** `ops`, `/ops/`, `` → `/ops`; the default `/ops` when unset. */
export function normalizeOpsPrefix(prefix: string | null | undefined): string {
  const trimmed = String(prefix ?? '').trim().replace(/^\/+|\/+$/g, '')
  return trimmed === '' ? DEFAULT_PREFIX : `/${trimmed}`
}

/**
 * Resolves an application's ops API from Coolify: base URL = its first https domain + its
 * `OPS_PREFIX` env var (default `/ops`), token = its `OPS_TOKEN` env var. Production
 * (non-preview) variables only; `real_value` (shared variables resolved) is preferred.
 * A prefix outside OPS_PREFIX_PATTERN, or a target the policy refuses (plain http, a
 * non-public address), leaves the application "not configured": no token is ever sent.
 */
@inject()
export class OpsTargetService {
  constructor(
    protected client: CoolifyClient,
    protected scope: ProjectScopeService
  ) {}

  async resolve(applicationUuid: string): Promise<OpsTarget | OpsTargetMissing> {
    await this.scope.assertApplication(applicationUuid)
    const id = encodeURIComponent(applicationUuid)
    const [app, envs] = await Promise.all([
      this.client.get<CoolifyApplication>(`/applications/${id}`),
      this.client.get<CoolifyEnvVar[]>(`/applications/${id}/envs`),
    ])
    const production = envs.filter((e) => e.is_preview !== true)
    const tokenVar = production.find((e) => e.key === 'OPS_TOKEN')
    const prefixVar = production.find((e) => e.key === 'OPS_PREFIX')

    const origin = firstOpsOrigin(app.fqdn)
    if (!origin) {
      return {
        configured: false,
        applicationUuid,
        reason: 'no_https_domain',
        message: 'The application has no https domain in Coolify; the ops token is never sent over plain http.',
      }
    }
    const allowPrivate = env.get('COOLIFY_OPS_ALLOW_PRIVATE', false)
    const refusal = await refuseOpsOrigin(origin, allowPrivate)
    if (refusal) return { configured: false, applicationUuid, reason: 'target_not_allowed', message: refusal }
    if (!tokenVar) {
      return {
        configured: false,
        applicationUuid,
        reason: 'no_ops_token',
        message: 'Set the OPS_TOKEN environment variable of the application in Coolify (and OPS_PREFIX if not /ops).',
      }
    }
    const token = tokenVar.real_value ?? tokenVar.value ?? ''
    if (token === '') {
      return {
        configured: false,
        applicationUuid,
        reason: 'ops_token_not_readable',
        message: 'OPS_TOKEN exists but its value is not readable: the Coolify token needs the read:sensitive ability.',
      }
    }
    const prefix = normalizeOpsPrefix(prefixVar?.real_value ?? prefixVar?.value)
    if (!OPS_PREFIX_PATTERN.test(prefix)) {
      return {
        configured: false,
        applicationUuid,
        reason: 'invalid_ops_prefix',
        message: 'OPS_PREFIX may only hold letters, digits, "/", "_" and "-" (no "?", "#", "." or "%").',
      }
    }
    const basePath = origin.pathname.replace(/\/+$/, '')
    return {
      configured: true,
      applicationUuid,
      applicationName: typeof app.name === 'string' ? app.name : null,
      baseUrl: `${origin.origin}${basePath}${prefix}`,
      token,
      allowPrivate,
    }
  }
}
