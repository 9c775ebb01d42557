import { inject } from '@adonisjs/core'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { ProjectScopeService } from '#services/coolify/project_scope_service'
import { DashboardAuditService } from '#services/coolify/dashboard_audit_service'
import { maskSecrets } from '#services/coolify/masking'
import CoolifyNoBackupScheduleException from '#exceptions/coolify_no_backup_schedule_exception'
import type { CoolifyDatabase, DashboardActor } from '#services/coolify/types'

const path = (uuid: string, rest = '') => `/databases/${encodeURIComponent(uuid)}${rest}`

interface BackupSchedule {
  uuid: string
  enabled?: boolean
  frequency?: string
  executions?: unknown[]
  [key: string]: unknown
}

export interface TriggerBackupInput {
  /** Schedule to run now; default: the first enabled schedule. */
  backup_uuid?: string
  /** Creates a schedule with this frequency (and runs it) when the database has none. */
  frequency?: string
}

/**
 * Databases: list, details (passwords and the credentials in `internal_db_url` /
 * `external_db_url` masked unless revealed), start/stop/restart, backup schedules with their
 * executions, and "back up now".
 */
@inject()
export class DatabasesService {
  constructor(
    protected client: CoolifyClient,
    protected scope: ProjectScopeService,
    protected audit: DashboardAuditService
  ) {}

  async list(actor: DashboardActor, reveal = false) {
    const databases = await this.scope.filterDatabases(await this.client.get<CoolifyDatabase[]>('/databases'))
    if (reveal) await this.audit.record(actor, { action: 'coolify.reveal', target: 'databases', outcome: 'success' })
    return maskSecrets(databases, reveal)
  }

  async show(actor: DashboardActor, uuid: string, reveal = false) {
    await this.scope.assertDatabase(uuid)
    const database = await this.client.get<CoolifyDatabase>(path(uuid))
    if (reveal) await this.audit.record(actor, { action: 'coolify.reveal', target: `database:${uuid}`, outcome: 'success' })
    return maskSecrets(database, reveal)
  }

  async start(actor: DashboardActor, uuid: string) {
    return this.action(actor, uuid, 'start', {})
  }

  /** `docker_cleanup` defaults to true upstream. */
  async stop(actor: DashboardActor, uuid: string, options: { docker_cleanup?: boolean }) {
    return this.action(actor, uuid, 'stop', { docker_cleanup: options.docker_cleanup })
  }

  async restart(actor: DashboardActor, uuid: string) {
    return this.action(actor, uuid, 'restart', {})
  }

  /** `PATCH /databases/{uuid}` with Coolify's field names (`limits_cpus`, `is_public` …). */
  async update(actor: DashboardActor, uuid: string, changes: Record<string, unknown>) {
    await this.scope.assertDatabase(uuid)
    return this.audit.around(
      actor,
      { action: 'coolify.database.update', target: `database:${uuid}`, details: { fields: Object.keys(changes) } },
      async () => maskSecrets(await this.client.patch<{ message?: string }>(path(uuid), { body: changes }))
    )
  }

  /** Backup schedules, each with its executions (Coolify embeds them: one call, no N+1). */
  async backups(uuid: string) {
    await this.scope.assertDatabase(uuid)
    return maskSecrets(await this.client.get<BackupSchedule[]>(path(uuid, '/backups')))
  }

  /**
   * Runs a backup now: `PATCH /databases/{uuid}/backups/{schedule} {backup_now: true}` on the
   * chosen (or first enabled) schedule, or creates one with `frequency` and `backup_now`
   * when the database has none. Without a schedule and a frequency: 409.
   */
  async backupNow(actor: DashboardActor, uuid: string, input: TriggerBackupInput) {
    await this.scope.assertDatabase(uuid)
    const schedules = await this.client.get<BackupSchedule[]>(path(uuid, '/backups'), { cache: false })
    const chosen = input.backup_uuid
      ? schedules.find((s) => s.uuid === input.backup_uuid)
      : (schedules.find((s) => s.enabled !== false) ?? schedules[0])

    if (input.backup_uuid && !chosen) {
      throw new CoolifyNoBackupScheduleException(`Database ${uuid} has no backup schedule ${input.backup_uuid}.`, { status: 404 })
    }
    if (!chosen && !input.frequency) {
      throw new CoolifyNoBackupScheduleException(
        `Database ${uuid} has no backup schedule. Pass "frequency" (cron or hourly/daily/weekly…) to create one and run it now.`
      )
    }
    return this.audit.around(
      actor,
      { action: 'coolify.database.backup', target: `database:${uuid}`, details: { schedule: chosen?.uuid ?? null, frequency: input.frequency ?? null } },
      async () => {
        if (chosen) {
          const answer = await this.client.patch<{ message?: string }>(path(uuid, `/backups/${encodeURIComponent(chosen.uuid)}`), {
            body: { backup_now: true },
          })
          return maskSecrets({ message: answer?.message ?? 'Backup started.', backup_uuid: chosen.uuid, created: false })
        }
        const answer = await this.client.post<{ uuid: string; message?: string }>(path(uuid, '/backups'), {
          body: { frequency: input.frequency, enabled: true, backup_now: true },
        })
        return maskSecrets({ message: answer?.message ?? 'Backup started.', backup_uuid: answer.uuid, created: true })
      }
    )
  }

  protected async action(actor: DashboardActor, uuid: string, verb: 'start' | 'stop' | 'restart', query: Record<string, boolean | undefined>) {
    await this.scope.assertDatabase(uuid)
    return this.audit.around(actor, { action: `coolify.database.${verb}`, target: `database:${uuid}`, details: query }, async () =>
      maskSecrets(await this.client.post<{ message: string }>(path(uuid, `/${verb}`), { query }))
    )
  }
}
