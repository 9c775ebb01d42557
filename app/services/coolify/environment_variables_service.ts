import { inject } from '@adonisjs/core'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { ProjectScopeService } from '#services/coolify/project_scope_service'
import { DashboardAuditService } from '#services/coolify/dashboard_audit_service'
import { maskSecrets } from '#services/coolify/masking'
import CoolifyRequestException from '#exceptions/coolify_request_exception'
import type { CoolifyEnvVar, DashboardActor } from '#services/coolify/types'

const envsPath = (uuid: string) => `/applications/${encodeURIComponent(uuid)}/envs`

export interface EnvVarInput {
  key?: string
  value?: string | null
  is_preview?: boolean
  is_literal?: boolean
  is_multiline?: boolean
  is_shown_once?: boolean
  is_runtime?: boolean
  is_buildtime?: boolean
  comment?: string | null
}

/**
 * Environment variables of an application. Values are masked unless revealed (and the
 * reveal is audited). Updates go to `PATCH /applications/{uuid}/envs` with the key in the
 * body, as Coolify expects; the `{env}` path segment may be the variable's key or uuid.
 */
@inject()
export class EnvironmentVariablesService {
  constructor(
    protected client: CoolifyClient,
    protected scope: ProjectScopeService,
    protected audit: DashboardAuditService
  ) {}

  /** Production variables first, then preview ones (Coolify's order). */
  async list(actor: DashboardActor, uuid: string, reveal = false) {
    await this.scope.assertApplication(uuid)
    const envs = await this.client.get<CoolifyEnvVar[]>(envsPath(uuid))
    if (reveal) {
      await this.audit.record(actor, {
        action: 'coolify.reveal',
        target: `application:${uuid}/envs`,
        outcome: 'success',
        details: { keys: envs.map((e) => e.key) },
      })
    }
    return maskSecrets(envs, reveal)
  }

  /** `POST /applications/{uuid}/envs`; Coolify answers 409 when the key already exists. */
  async create(actor: DashboardActor, uuid: string, input: EnvVarInput & { key: string }) {
    await this.scope.assertApplication(uuid)
    return this.audit.around(
      actor,
      { action: 'coolify.env.create', target: `application:${uuid}/envs/${input.key}`, details: { is_preview: input.is_preview ?? false } },
      async () => maskSecrets(await this.client.post<{ uuid: string }>(envsPath(uuid), { body: input }))
    )
  }

  /** Updates the variable found by uuid or key; the answer is masked. */
  async update(actor: DashboardActor, uuid: string, ref: string, changes: Omit<EnvVarInput, 'key'>) {
    await this.scope.assertApplication(uuid)
    const env = await this.resolve(uuid, ref, changes.is_preview)
    const { is_preview: _preview, ...rest } = changes
    const updated = await this.audit.around(
      actor,
      { action: 'coolify.env.update', target: `application:${uuid}/envs/${env.key}`, details: { fields: Object.keys(rest), is_preview: env.is_preview ?? false } },
      () => this.client.patch<CoolifyEnvVar>(envsPath(uuid), { body: { key: env.key, is_preview: env.is_preview ?? false, ...rest } })
    )
    return maskSecrets(updated)
  }

  /** `DELETE /applications/{uuid}/envs/{env_uuid}` for the variable found by uuid or key. */
  async remove(actor: DashboardActor, uuid: string, ref: string, isPreview?: boolean) {
    await this.scope.assertApplication(uuid)
    const env = await this.resolve(uuid, ref, isPreview)
    return this.audit.around(
      actor,
      { action: 'coolify.env.delete', target: `application:${uuid}/envs/${env.key}`, details: { is_preview: env.is_preview ?? false } },
      async () => maskSecrets(await this.client.delete<{ message: string }>(`${envsPath(uuid)}/${encodeURIComponent(env.uuid)}`))
    )
  }

  /**
   * Finds a variable by uuid, else by key (the production one unless `isPreview`). Read
   * uncached so a variable created a moment ago elsewhere is found.
   */
  protected async resolve(uuid: string, ref: string, isPreview?: boolean): Promise<CoolifyEnvVar> {
    const envs = await this.client.get<CoolifyEnvVar[]>(envsPath(uuid), { cache: false })
    const byUuid = envs.find((e) => e.uuid === ref)
    if (byUuid) return byUuid
    const byKey = envs.filter((e) => e.key === ref)
    const match = byKey.find((e) => (e.is_preview ?? false) === (isPreview ?? false)) ?? (isPreview === undefined ? byKey[0] : undefined)
    if (!match) {
      throw new CoolifyRequestException(`Coolify: environment variable ${ref} not found on application ${uuid}.`, { status: 404 })
    }
    return match
  }
}
