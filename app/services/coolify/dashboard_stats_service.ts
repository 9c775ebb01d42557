import { inject } from '@adonisjs/core'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { ProjectScopeService } from '#services/coolify/project_scope_service'
import { maskSecrets } from '#services/coolify/masking'
import CoolifyTokenRejectedException from '#exceptions/coolify_token_rejected_exception'
import CoolifyNotConfiguredException from '#exceptions/coolify_not_configured_exception'
import type { CoolifyApplication, CoolifyDatabase, CoolifyDeployment, CoolifyResourceRef, CoolifyServer } from '#services/coolify/types'

export interface StatusCounts {
  total: number
  /** Counts by the state part of Coolify's status (`running:healthy` → `running`). */
  by_status: Record<string, number>
}

/** How many applications' histories feed `recent_deployments`. */
const RECENT_APPS = 10
const RECENT_LIMIT = 10

export function countByStatus(resources: Array<{ status?: unknown }>): StatusCounts {
  const by_status: Record<string, number> = {}
  for (const r of resources) {
    const state = String(r.status ?? 'unknown').split(':')[0] || 'unknown'
    by_status[state] = (by_status[state] ?? 0) + 1
  }
  return { total: resources.length, by_status }
}

/**
 * `GET /stats`: Coolify reachability and version, counts by status of applications,
 * databases, services and servers, and the most recent deployments. It carries no secret
 * (no env values, webhook secrets or passwords) and never fails because Coolify is down:
 * reachability is part of the answer.
 */
@inject()
export class DashboardStatsService {
  constructor(
    protected client: CoolifyClient,
    protected scope: ProjectScopeService
  ) {}

  async stats() {
    const coolify = {
      configured: this.client.configured,
      reachable: false,
      authenticated: false,
      version: null as string | null,
      error: null as string | null,
    }
    const empty = { total: 0, by_status: {} }
    const result = {
      coolify,
      project: null as { uuid: string; name: string | null } | null,
      applications: empty as StatusCounts,
      databases: empty as StatusCounts,
      services: empty as StatusCounts,
      servers: empty as StatusCounts,
      recent_deployments: [] as ReturnType<typeof recentEntry>[],
      errors: {} as Record<string, string>,
    }

    try {
      const version = await this.client.get<unknown>('/version', { cache: false })
      coolify.reachable = true
      coolify.authenticated = true
      coolify.version = typeof version === 'string' ? version.trim() : null
    } catch (error) {
      coolify.error = (error as Error).message
      // A rejected token proves Coolify answered; not configured means nothing was tried.
      coolify.reachable = error instanceof CoolifyTokenRejectedException
      if (error instanceof CoolifyNotConfiguredException) coolify.configured = false
      return maskSecrets(result)
    }

    const [inventory, applications, databases, services, servers] = await Promise.allSettled([
      this.scope.inventory(),
      this.client.get<CoolifyApplication[]>('/applications').then((l) => this.scope.filterApplications(l)),
      this.client.get<CoolifyDatabase[]>('/databases').then((l) => this.scope.filterDatabases(l)),
      this.client.get<CoolifyResourceRef[]>('/services').then((l) => this.scope.filterServices(l)),
      this.client.get<CoolifyServer[]>('/servers').then((l) => this.scope.filterServers(l)),
    ])
    const settle = <T>(name: string, r: PromiseSettledResult<T>): T | null => {
      if (r.status === 'fulfilled') return r.value
      result.errors[name] = (r.reason as Error).message
      return null
    }
    const inv = settle('project', inventory)
    if (inv) {
      const projectName = await this.client
        .get<{ name?: string }>(`/projects/${encodeURIComponent(inv.projectUuid)}`)
        .then((p) => p.name ?? null)
        .catch(() => null)
      result.project = { uuid: inv.projectUuid, name: projectName }
    }
    const apps = settle('applications', applications)
    if (apps) result.applications = countByStatus(apps)
    const dbs = settle('databases', databases)
    if (dbs) result.databases = countByStatus(dbs)
    const svcs = settle('services', services)
    if (svcs) result.services = countByStatus(svcs)
    const srvs = settle('servers', servers)
    if (srvs) {
      result.servers = countByStatus(
        srvs.map((s) => ({ status: s.settings?.is_reachable === false ? 'unreachable' : s.settings?.is_usable === false ? 'unusable' : 'reachable' }))
      )
    }
    if (apps) result.recent_deployments = await this.recentDeployments(apps, result.errors)
    return maskSecrets(result)
  }

  protected async recentDeployments(apps: CoolifyApplication[], errors: Record<string, string>) {
    const histories = await Promise.allSettled(
      apps.slice(0, RECENT_APPS).map(async (app) => {
        const answer = await this.client.get<{ deployments?: CoolifyDeployment[] } | CoolifyDeployment[]>(
          `/deployments/applications/${encodeURIComponent(app.uuid)}`,
          { query: { skip: 0, take: 5 }, cache: false }
        )
        const list = Array.isArray(answer) ? answer : (answer.deployments ?? [])
        return list.map((d) => recentEntry(d, app))
      })
    )
    const entries = histories.flatMap((h) => {
      if (h.status === 'fulfilled') return h.value
      errors.deployments = (h.reason as Error).message
      return []
    })
    return entries.sort((a, b) => String(b.created_at ?? '').localeCompare(String(a.created_at ?? ''))).slice(0, RECENT_LIMIT)
  }
}

function recentEntry(d: CoolifyDeployment, app: CoolifyApplication) {
  const start = d.created_at ? Date.parse(d.created_at) : Number.NaN
  const end = d.finished_at ? Date.parse(d.finished_at) : Number.NaN
  return {
    deployment_uuid: d.deployment_uuid,
    application_uuid: app.uuid,
    application_name: app.name ?? d.application_name ?? null,
    status: d.status ?? null,
    commit: typeof d.commit === 'string' && d.commit !== 'HEAD' ? d.commit.slice(0, 7) : (d.commit ?? null),
    commit_message: d.commit_message ?? null,
    created_at: d.created_at ?? null,
    finished_at: d.finished_at ?? null,
    duration_seconds: Number.isFinite(start) && Number.isFinite(end) ? Math.round((end - start) / 1000) : null,
  }
}
