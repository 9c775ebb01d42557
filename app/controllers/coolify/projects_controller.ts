import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ProjectsService } from '#services/coolify/projects_service'
import { uuidParamValidator } from '#validators/coolify'

/** {dashboard}/api/projects[/:uuid[/environments]] */
@inject()
export default class ProjectsController {
  constructor(protected projects: ProjectsService) {}

  async index() {
    return this.projects.list()
  }

  /** The project with its `environments`. */
  async show({ request }: HttpContext) {
    const { params } = await request.validateUsing(uuidParamValidator)
    return this.projects.show(params.uuid)
  }

  async environments({ request }: HttpContext) {
    const { params } = await request.validateUsing(uuidParamValidator)
    return this.projects.environments(params.uuid)
  }
}
