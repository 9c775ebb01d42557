import { inject } from '@adonisjs/core'
import env from '#start/env'
import { OpsTargetService, type OpsTarget } from '#services/coolify/ops_target_service'
import { DashboardAuditService } from '#services/coolify/dashboard_audit_service'
import { RateLimitService, type RateLimitPolicy } from '#services/rate_limit_service'
import CoolifyOpsNotConfiguredException from '#exceptions/coolify_ops_not_configured_exception'
import CoolifyOpsUnreachableException from '#exceptions/coolify_ops_unreachable_exception'
import CoolifyOpsInvalidResponseException from '#exceptions/coolify_ops_invalid_response_exception'
import { opsRequestUrl } from '#services/coolify/ops_target_policy'
import { requestOps, type OpsHttpAnswer } from '#services/coolify/ops_transport'
import type { DashboardActor } from '#services/coolify/types'

/** An ops API answer, passed on as JSON: its status and its parsed JSON body. */
export interface ProxiedResponse {
  status: number
  /** The ops API answered `application/problem+json` (an error in RFC 9457 form). */
  problem: boolean
  body: unknown
  /** RateLimit-* headers of the dashboard's own budget (mutations only). */
  headers?: Record<string, string>
}

/** Budget of mutating proxy calls (console runs, retries) per admin. */
const MUTATION_POLICY: RateLimitPolicy = { bucket: 'coolify_ops_mutation', requests: 10, window: '1 minute' }

export interface OpsStatus {
  configured: boolean
  reachable: boolean
  healthy: boolean | null
  /** null when healthy; otherwise why not (not configured, unreachable, unauthorized …). */
  reason: string | null
  message: string | null
}

const READ_TIMEOUT_MS = 10_000
/** Largest ops answer read (a 1000-line log page is far below). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024
const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9.+-]+\+)?json$/

/**
 * Proxy to the operations API (Surface B) of applications deployed on Coolify. The base
 * URL and token come from Coolify (OpsTargetService) and stay server-side. `status` keeps
 * configured / reachable / healthy apart (an unhealthy app is reachable); every other call
 * passes the ops API's status and JSON body on, so its 403 stays a 403 and its 404 a 404.
 * Only JSON is passed on, re-serialised: anything else is a 502, never the upstream markup.
 */
@inject()
export class OpsProxyService {
  constructor(
    protected targets: OpsTargetService,
    protected audit: DashboardAuditService,
    protected rateLimits: RateLimitService
  ) {}

  /** Never throws for a missing or failing ops API: that is what it reports. */
  async status(applicationUuid: string): Promise<OpsStatus> {
    const target = await this.targets.resolve(applicationUuid)
    if (!target.configured) {
      return { configured: false, reachable: false, healthy: null, reason: target.reason, message: target.message }
    }
    let response: ProxiedResponse
    try {
      response = await this.send(target, 'GET', '/health', {})
    } catch (error) {
      if (error instanceof CoolifyOpsInvalidResponseException) {
        return {
          configured: true,
          reachable: true,
          healthy: null,
          reason: 'unexpected_response',
          message: `The ops health endpoint answered ${error.problemExtensions.upstream_status} without JSON; check OPS_PREFIX.`,
        }
      }
      return { configured: true, reachable: false, healthy: null, reason: 'unreachable', message: (error as Error).message }
    }
    if (response.status === 401 || response.status === 403) {
      return {
        configured: true,
        reachable: true,
        healthy: null,
        reason: 'unauthorized',
        message: `The ops API refused OPS_TOKEN (${response.status}); check the token and its health:read scope.`,
      }
    }
    const body = response.body as { status?: unknown } | null
    const reportedStatus = body && typeof body === 'object' ? body.status : undefined
    if (response.status === 200 && reportedStatus === 'healthy') {
      return { configured: true, reachable: true, healthy: true, reason: null, message: null }
    }
    if ((response.status === 200 || response.status === 503) && typeof reportedStatus === 'string') {
      return { configured: true, reachable: true, healthy: false, reason: 'unhealthy', message: `Health check reports "${reportedStatus}".` }
    }
    return {
      configured: true,
      reachable: false,
      healthy: null,
      reason: 'unexpected_response',
      message: `The ops health endpoint answered ${response.status} without a health report; check OPS_PREFIX.`,
    }
  }

  /** A read (`/health`, `/stats`, `/logs`, `/logs/{file}`, `/queue`, `/queue/failed`, `/console`). */
  async get(applicationUuid: string, path: string, query: Record<string, string | number | undefined> = {}) {
    return this.send(await this.configuredTarget(applicationUuid), 'GET', path, query)
  }

  /**
   * A mutation (`POST /console`, queue retries), audited with its outcome. The console may
   * run for OPS_CONSOLE_TIMEOUT_SECONDS, so the deadline is that plus a margin. Each admin
   * has 10 mutating calls per minute (429 with Retry-After beyond).
   */
  async post(actor: DashboardActor, applicationUuid: string, path: string, body: unknown, auditDetails: Record<string, unknown>) {
    const headers = await this.rateLimits.hit(MUTATION_POLICY, `admin:${actor.email}`)
    const target = await this.configuredTarget(applicationUuid)
    const timeoutMs = (env.get('OPS_CONSOLE_TIMEOUT_SECONDS', 60) + 15) * 1000
    let response: ProxiedResponse | null = null
    try {
      response = await this.send(target, 'POST', path, {}, body, timeoutMs)
      // A 429 of the ops API itself keeps its own Retry-After and RateLimit-* (its window, not ours).
      return { ...response, headers: response.status === 429 ? { ...headers, ...response.headers } : headers }
    } finally {
      await this.audit.record(actor, {
        action: `coolify.ops.${path.split('/').filter(Boolean).slice(0, 2).join('.')}`,
        target: `application:${applicationUuid}${path}`,
        outcome: response && response.status < 400 ? 'success' : 'failure',
        details: { ...auditDetails, status: response?.status ?? null },
      })
    }
  }

  protected async configuredTarget(applicationUuid: string): Promise<OpsTarget> {
    const target = await this.targets.resolve(applicationUuid)
    if (!target.configured) {
      const error = new CoolifyOpsNotConfiguredException(`Ops API of application ${applicationUuid} is not configured: ${target.message}`)
      error.problemExtensions = { ...error.problemExtensions, reason: target.reason }
      throw error
    }
    return target
  }

  /**
   * One call to the ops API. The URL must stay under OPS_PREFIX; every connection failure
   * (refused, reset, DNS, TLS, timeout, a refused address) is the same generic 502, so the
   * answer never tells an open port from a closed one.
   */
  protected async send(
    target: OpsTarget,
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, string | number | undefined>,
    body?: unknown,
    timeoutMs = READ_TIMEOUT_MS
  ): Promise<ProxiedResponse> {
    const name = target.applicationName ?? target.applicationUuid
    const url = opsRequestUrl(target.baseUrl, path, query)
    if (!url) {
      const error = new CoolifyOpsNotConfiguredException(`The ops API call of application ${name} would leave its OPS_PREFIX; refused.`)
      error.problemExtensions = { ...error.problemExtensions, reason: 'invalid_ops_prefix' }
      throw error
    }
    let answer: OpsHttpAnswer
    try {
      answer = await requestOps(url, {
        method,
        headers: {
          'Accept': 'application/json',
          'Authorization': `Bearer ${target.token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs,
        allowPrivate: target.allowPrivate,
        maxBytes: MAX_ANSWER_BYTES,
      })
    } catch {
      throw new CoolifyOpsUnreachableException(
        `The ops API of application ${name} could not be reached or did not answer within ${Math.round(timeoutMs / 1000)} s.`
      )
    }
    return parseAnswer(answer, name)
  }
}

/** The ops API's JSON (status kept), or a 502 naming what came instead, never its body. */
function parseAnswer(answer: OpsHttpAnswer, name: string): ProxiedResponse {
  const mediaType = answer.contentType.split(';')[0].trim().toLowerCase()
  const invalid = (what: string) =>
    new CoolifyOpsInvalidResponseException(`The ops API of application ${name} answered ${answer.status} with ${what} instead of JSON.`, answer.status)
  if (answer.body === null) throw invalid(`more than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`)
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw invalid(/^[a-z0-9.+-]{1,60}\/[a-z0-9.+-]{1,60}$/.test(mediaType) ? `content type ${mediaType}` : 'no usable content type')
  }
  try {
    return {
      status: answer.status,
      problem: mediaType === 'application/problem+json',
      body: JSON.parse(answer.body),
      ...(answer.status === 429 ? { headers: answer.limitHeaders } : {}),
    }
  } catch {
    throw invalid('a body that is not valid JSON')
  }
}
