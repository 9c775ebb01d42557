import { inject } from '@adonisjs/core'
import { CoolifyClient } from '#services/coolify/coolify_client'
import { ProjectScopeService } from '#services/coolify/project_scope_service'
import { maskSecrets } from '#services/coolify/masking'
import type { CoolifyEnvironment, CoolifyProject } from '#services/coolify/types'

const path = (uuid: string, rest = '') => `/projects/${encodeURIComponent(uuid)}${rest}`

/** Projects and their environments; with COOLIFY_PROJECT_UUID only that project exists. */
@inject()
export class ProjectsService {
  constructor(
    protected client: CoolifyClient,
    protected scope: ProjectScopeService
  ) {}

  async list() {
    return maskSecrets(await this.scope.filterProjects(await this.client.get<CoolifyProject[]>('/projects')))
  }

  /** The project with its `environments`. */
  async show(uuid: string) {
    await this.scope.assertProject(uuid)
    return maskSecrets(await this.client.get<CoolifyProject>(path(uuid)))
  }

  async environments(uuid: string) {
    await this.scope.assertProject(uuid)
    return maskSecrets(await this.client.get<CoolifyEnvironment[]>(path(uuid, '/environments')))
  }
}
