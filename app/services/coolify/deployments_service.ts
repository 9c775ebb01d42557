import { inject } from '@adonisjs/core'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { ProjectScopeService } from '#services/coolify/project_scope_service'
import { DashboardAuditService } from '#services/coolify/dashboard_audit_service'
import { maskSecrets } from '#services/coolify/masking'
import type { CoolifyDeployment, DashboardActor } from '#services/coolify/types'

export interface DeploymentLogEntry {
  command: string | null
  output: string
  type: string
  timestamp: string | null
  hidden: boolean
  batch: number | null
  order: number | null
}

/** Deployment without its (large, possibly sensitive) `logs` string, plus its duration. */
export function summarizeDeployment(deployment: CoolifyDeployment) {
  const { logs: _logs, ...rest } = deployment
  const start = deployment.created_at ? Date.parse(deployment.created_at) : Number.NaN
  const end = deployment.finished_at ? Date.parse(deployment.finished_at) : Number.NaN
  return {
    ...rest,
    duration_seconds: Number.isFinite(start) && Number.isFinite(end) ? Math.round((end - start) / 1000) : null,
  }
}

/** Coolify stores deployment logs as a JSON string of entries; anything else gives []. */
export function parseDeploymentLogs(raw: unknown): DeploymentLogEntry[] {
  if (typeof raw !== 'string' || raw === '') return []
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return []
  }
  if (!Array.isArray(parsed)) return []
  return parsed
    .filter((e) => e && typeof e === 'object')
    .map((e: Record<string, unknown>) => ({
      command: typeof e.command === 'string' ? e.command : null,
      output: typeof e.output === 'string' ? e.output : '',
      type: typeof e.type === 'string' ? e.type : 'stdout',
      timestamp: typeof e.timestamp === 'string' ? e.timestamp : null,
      hidden: e.hidden === true,
      batch: typeof e.batch === 'number' ? e.batch : null,
      order: typeof e.order === 'number' ? e.order : null,
    }))
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
}

/**
 * Deployments: paged history of an application (`skip`/`take`, never capped at Coolify's
 * default 10), details, live logs and cancel. Deployment reads are never cached, since a
 * running deployment changes every second.
 */
@inject()
export class DeploymentsService {
  constructor(
    protected client: CoolifyClient,
    protected scope: ProjectScopeService,
    protected audit: DashboardAuditService
  ) {}

  /** `GET /deployments/applications/{uuid}?skip=&take=` → `{count, skip, take, deployments}`, newest first. */
  async listForApplication(uuid: string, skip: number, take: number) {
    await this.scope.assertApplication(uuid)
    const answer = await this.client.get<{ count?: number; deployments?: CoolifyDeployment[] } | CoolifyDeployment[]>(
      `/deployments/applications/${encodeURIComponent(uuid)}`,
      { query: { skip, take }, cache: false }
    )
    // Coolify's OpenAPI documents an array; the real answer is {count, deployments}. Accept both.
    const deployments = Array.isArray(answer) ? answer : (answer.deployments ?? [])
    const count = Array.isArray(answer) ? skip + deployments.length : (answer.count ?? deployments.length)
    return maskSecrets({ count, skip, take, deployments: deployments.map(summarizeDeployment) })
  }

  async show(uuid: string) {
    return maskSecrets(summarizeDeployment(await this.fetch(uuid)))
  }

  /** Parsed log entries of a deployment; Coolify's internal (hidden) steps only on request. */
  async logs(uuid: string, includeHidden = false) {
    const deployment = await this.fetch(uuid)
    const entries = parseDeploymentLogs(deployment.logs)
    return maskSecrets({
      deployment_uuid: deployment.deployment_uuid,
      status: deployment.status ?? null,
      logs: includeHidden ? entries : entries.filter((e) => !e.hidden),
    })
  }

  async cancel(actor: DashboardActor, uuid: string) {
    await this.fetch(uuid)
    return this.audit.around(actor, { action: 'coolify.deployment.cancel', target: `deployment:${uuid}` }, async () =>
      maskSecrets(
        await this.client.post<{ message: string; deployment_uuid: string; status: string }>(`/deployments/${encodeURIComponent(uuid)}/cancel`)
      )
    )
  }

  /** With a project scope, an unknown deployment is a 403 like any other outside uuid. */
  protected async fetch(uuid: string) {
    let deployment: CoolifyDeployment
    try {
      deployment = await this.client.get<CoolifyDeployment>(`/deployments/${encodeURIComponent(uuid)}`, { cache: false })
    } catch (error) {
      if ((error as { status?: number }).status === 404 && this.scope.projectUuid) {
        await this.scope.assertDeployment({ deployment_uuid: uuid, application_id: null })
      }
      throw error
    }
    await this.scope.assertDeployment(deployment)
    return deployment
  }
}
