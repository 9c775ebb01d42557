import type { Json, SimState } from '#simulators/coolify/seed'
import { applicationRoutes, queueDeployment } from '#simulators/coolify/application_routes'
import { databaseRoutes } from '#simulators/coolify/database_routes'
import { baseStatus, bodyOf, findBy, message, notFound, ok, route, truthy, type SimRoute } from '#simulators/coolify/helpers'

export type { SimResponse } from '#simulators/coolify/helpers'

const DB_KEYS: Record<string, string> = {
  'standalone-postgresql': 'postgresqls',
  'standalone-redis': 'redis',
  'standalone-mongodb': 'mongodbs',
  'standalone-mysql': 'mysqls',
  'standalone-mariadb': 'mariadbs',
}

const serverIdOf = (state: SimState, resource: Json): number | undefined => {
  const dest = resource.destination as Json | undefined
  if (dest && typeof dest.server_id === 'number') return dest.server_id
  return typeof resource.server_id === 'number' ? resource.server_id : state.servers[0]?.id as number
}

function resourcesOf(state: SimState): Json[] {
  return [
    ...state.applications.map((a) => ({ ...a, type: 'application' })),
    ...state.databases.map((d) => ({ ...d, type: d.database_type })),
    ...state.services.map((s) => ({ ...s, type: 'service' })),
  ]
}

function environmentWithResources(state: SimState, env: Json): Json {
  const apps = state.applications.filter((a) => a.environment_id === env.id)
  const out: Json = { ...env, applications: apps, postgresqls: [], redis: [], mongodbs: [], mysqls: [], mariadbs: [] }
  for (const db of state.databases.filter((d) => d.environment_id === env.id)) {
    const key = DB_KEYS[db.database_type as string]
    if (key) (out[key] as Json[]).push(db)
  }
  out.services = state.services.filter((s) => s.environment_id === env.id)
  return out
}

function deploy(ctx: { state: SimState; query: Record<string, string>; body: unknown }) {
  const input = { ...bodyOf(ctx as never), ...ctx.query }
  const uuids = typeof input.uuid === 'string' ? input.uuid : undefined
  const tag = typeof input.tag === 'string' ? input.tag : undefined
  if (uuids && tag) return message(400, 'You can only use uuid or tag, not both.')
  if (!uuids && !tag) return message(400, 'You must provide uuid or tag.')
  if (tag) return message(404, 'No resources found with this tag.')
  const deployments: Json[] = []
  for (const uuid of uuids!.split(',').map((u) => u.trim()).filter(Boolean)) {
    const app = findBy(ctx.state.applications, uuid)
    if (app) {
      const deploymentUuid = queueDeployment(ctx.state, app, { force: truthy(input.force) })
      deployments.push({ message: `Application ${app.name} deployment queued.`, resource_uuid: uuid, deployment_uuid: deploymentUuid })
      continue
    }
    const service = findBy(ctx.state.services, uuid)
    if (service) {
      service.status = 'running:healthy'
      deployments.push({ message: `Service ${service.name} started. It could take a while, be patient.`, resource_uuid: uuid })
      continue
    }
    const db = findBy(ctx.state.databases, uuid)
    if (db) {
      db.status = 'running:healthy'
      deployments.push({ message: `Database ${db.name} started.`, resource_uuid: uuid })
    }
  }
  if (deployments.length === 0) return message(404, 'No resources found.')
  return ok({ deployments })
}

function serviceAction(kind: 'start' | 'stop' | 'restart') {
  return route(['POST'], `/services/{uuid}/${kind}`, ({ state, params }) => {
    const service = findBy(state.services, params.uuid)
    if (!service) return notFound('Service')
    const running = baseStatus(service.status) === 'running'
    if (kind === 'start' && running) return message(400, 'Service is already running.')
    if (kind === 'stop' && !running) return message(400, 'Service is already stopped.')
    service.status = kind === 'stop' ? 'exited' : 'running:healthy'
    return message(200, `Service ${kind === 'start' ? 'starting' : kind === 'stop' ? 'stopping' : 'restarting'} request queued.`)
  }, true)
}

const deploymentRoutes: SimRoute[] = [
  route(['POST'], '/deploy', deploy, true),
  route(['GET'], '/deployments', ({ state }) =>
    ok(state.deployments.filter((d) => d.status === 'queued' || d.status === 'in_progress'))
  ),
  route(['GET'], '/deployments/{uuid}', ({ state, params }) => {
    const dep = state.deployments.find((d) => d.deployment_uuid === params.uuid)
    return dep ? ok(dep) : notFound('Deployment')
  }),
  route(['POST'], '/deployments/{uuid}/cancel', ({ state, params }) => {
    const dep = state.deployments.find((d) => d.deployment_uuid === params.uuid)
    if (!dep) return notFound('Deployment')
    if (!['queued', 'in_progress'].includes(dep.status as string)) {
      return message(400, `Deployment cannot be cancelled. Current status: ${dep.status}`)
    }
    dep.status = 'cancelled-by-user'
    dep.finished_at = new Date().toISOString()
    return ok({ message: 'Deployment cancelled successfully.', deployment_uuid: dep.deployment_uuid, status: dep.status })
  }),
  route(['GET'], '/deployments/applications/{uuid}', ({ state, params, query }) => {
    const app = findBy(state.applications, params.uuid)
    if (!app) return notFound('Application')
    const skip = Math.max(0, Number(query.skip ?? 0) || 0)
    const take = Math.max(1, Number(query.take ?? 10) || 10)
    const all = state.deployments
      .filter((d) => d.application_id === String(app.id))
      .sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)))
    return ok({ count: all.length, deployments: all.slice(skip, skip + take) })
  }),
]

const serverRoutes: SimRoute[] = [
  route(['GET'], '/servers', ({ state }) => ok(state.servers)),
  route(['GET'], '/servers/{uuid}', ({ state, params }) => {
    const srv = findBy(state.servers, params.uuid)
    return srv ? ok(srv) : notFound('Server')
  }),
  route(['GET'], '/servers/{uuid}/resources', ({ state, params }) => {
    const srv = findBy(state.servers, params.uuid)
    if (!srv) return notFound('Server')
    return ok(
      resourcesOf(state)
        .filter((r) => serverIdOf(state, r) === srv.id)
        .map((r) => ({ id: r.id, uuid: r.uuid, name: r.name, type: r.type, created_at: r.created_at, updated_at: r.updated_at, status: r.status }))
    )
  }),
  route(['GET'], '/servers/{uuid}/domains', ({ state, params, query }) => {
    const srv = findBy(state.servers, params.uuid)
    if (!srv) return notFound('Server')
    const apps = state.applications.filter((a) => serverIdOf(state, a) === srv.id && (!query.uuid || a.uuid === query.uuid))
    const domains = apps.flatMap((a) => String(a.fqdn ?? '').split(',').filter(Boolean).map((u) => u.replace(/^https?:\/\//, '').replace(/\/.*$/, '')))
    return ok([{ ip: srv.ip, domains }])
  }),
  route(['POST'], '/servers/{uuid}/validate', ({ state, params }) => {
    const srv = findBy(state.servers, params.uuid)
    if (!srv) return notFound('Server')
    return message(201, 'Validation started.')
  }, true),
]

const otherRoutes: SimRoute[] = [
  route(['GET'], '/version', ({ state }) => ({ status: 200, body: state.version, headers: { 'content-type': 'text/html; charset=UTF-8' } })),
  route(['GET'], '/team', ({ state }) => ok(state.team)),
  route(['GET'], '/resources', ({ state }) => ok(resourcesOf(state))),
  route(['GET'], '/services', ({ state }) => ok(state.services)),
  route(['GET'], '/services/{uuid}', ({ state, params }) => {
    const svc = findBy(state.services, params.uuid)
    return svc ? ok({ ...svc, applications: [], databases: [] }) : notFound('Service')
  }),
  serviceAction('start'),
  serviceAction('stop'),
  serviceAction('restart'),
  route(['GET'], '/projects', ({ state }) =>
    ok(state.projects.map((p) => ({ id: p.id, uuid: p.uuid, name: p.name, description: p.description })))
  ),
  route(['GET'], '/projects/{uuid}', ({ state, params }) => {
    const project = findBy(state.projects, params.uuid)
    if (!project) return notFound('Project')
    return ok({ ...project, environments: state.environments.filter((e) => e.project_id === project.id) })
  }),
  route(['GET'], '/projects/{uuid}/environments', ({ state, params }) => {
    const project = findBy(state.projects, params.uuid)
    if (!project) return notFound('Project')
    return ok(state.environments.filter((e) => e.project_id === project.id))
  }),
  route(['GET'], '/projects/{uuid}/{environment}', ({ state, params }) => {
    const project = findBy(state.projects, params.uuid)
    if (!project) return notFound('Project')
    const env = state.environments.find(
      (e) => e.project_id === project.id && (e.uuid === params.environment || e.name === params.environment)
    )
    if (!env) return notFound('Environment')
    return ok(environmentWithResources(state, env))
  }),
]

/** Every simulated endpoint, first match wins. */
export const routes: SimRoute[] = [
  ...applicationRoutes,
  ...deploymentRoutes,
  ...databaseRoutes,
  ...serverRoutes,
  ...otherRoutes,
]
