import type { Json, SimEnvVar, SimState } from '#simulators/coolify/seed'
import {
  baseStatus,
  bodyOf,
  findBy,
  message,
  newUuid,
  nextId,
  notFound,
  nowIso,
  ok,
  rejectUnknown,
  route,
  truthy,
  validationFailed,
  type SimRoute,
} from '#simulators/coolify/helpers'

const ENV_FIELDS = ['key', 'value', 'is_preview', 'is_literal', 'is_multiline', 'is_shown_once', 'is_runtime', 'is_buildtime', 'comment']
const APP_PATCH_FIELDS = [
  'name', 'description', 'domains', 'git_repository', 'git_branch', 'git_commit_sha', 'build_pack',
  'ports_exposes', 'ports_mappings', 'install_command', 'build_command', 'start_command', 'base_directory',
  'publish_directory', 'health_check_enabled', 'health_check_path', 'health_check_port', 'health_check_host',
  'health_check_method', 'health_check_return_code', 'health_check_scheme', 'health_check_response_text',
  'health_check_interval', 'health_check_timeout', 'health_check_retries', 'health_check_start_period',
  'limits_memory', 'limits_memory_swap', 'limits_memory_swappiness', 'limits_memory_reservation', 'limits_cpus',
  'limits_cpuset', 'limits_cpu_shares', 'custom_labels', 'custom_docker_run_options', 'post_deployment_command',
  'pre_deployment_command', 'watch_paths', 'redirect', 'instant_deploy', 'is_http_basic_auth_enabled',
  'http_basic_auth_username', 'http_basic_auth_password',
]

/** Queues a deployment for an application, as Coolify's queue_application_deployment does. */
export function queueDeployment(state: SimState, app: Json, opts: { force?: boolean; restartOnly?: boolean } = {}): string {
  const uuid = newUuid()
  const server = ((app.destination as Json).server as Json) ?? { id: 0, name: 'localhost' }
  const now = nowIso()
  state.deployments.push({
    id: nextId(state),
    application_id: String(app.id),
    deployment_uuid: uuid,
    pull_request_id: 0,
    force_rebuild: opts.force ?? false,
    commit: app.git_commit_sha ?? 'HEAD',
    status: 'queued',
    is_webhook: false,
    is_api: true,
    created_at: now,
    updated_at: now,
    finished_at: null,
    logs: '[]',
    current_process_id: null,
    restart_only: opts.restartOnly ?? false,
    git_type: null,
    server_id: server.id,
    application_name: app.name,
    server_name: server.name,
    deployment_url: `/project/x/environment/y/application/${app.uuid}/deployment/${uuid}`,
    destination_id: '0',
    only_this_server: false,
    rollback: false,
    commit_message: null,
  })
  return uuid
}

const appOf = (state: SimState, uuid: string) => findBy(state.applications, uuid)

function envsOf(state: SimState, uuid: string): SimEnvVar[] {
  state.envs[uuid] ??= []
  return state.envs[uuid]
}

function checkEnvBody(body: Json, keyRequired: boolean) {
  const errors: Record<string, string[]> = {}
  if (keyRequired && (typeof body.key !== 'string' || body.key.trim() === '')) errors.key = ['The key field is required.']
  if (body.value !== undefined && body.value !== null && typeof body.value !== 'string') errors.value = ['The value field must be a string.']
  for (const flag of ENV_FIELDS.filter((f) => f.startsWith('is_'))) {
    if (body[flag] !== undefined && typeof body[flag] !== 'boolean') errors[flag] = [`The ${flag} field must be true or false.`]
  }
  return Object.keys(errors).length ? validationFailed(errors) : null
}

export const applicationRoutes: SimRoute[] = [
  route(['GET'], '/applications', ({ state, query }) => {
    return ok(query.tag ? [] : state.applications)
  }),
  route(['GET', 'PATCH', 'DELETE'], '/applications/{uuid}', (ctx) => {
    const app = appOf(ctx.state, ctx.params.uuid)
    if (!app) return notFound('Application')
    if (ctx.method === 'GET') return ok(app)
    if (ctx.method === 'DELETE') {
      ctx.state.applications = ctx.state.applications.filter((a) => a !== app)
      return message(200, 'Application deletion request queued.')
    }
    const rejected = rejectUnknown(ctx.body, APP_PATCH_FIELDS)
    if (rejected) return rejected
    const body = bodyOf(ctx)
    const { domains, instant_deploy: instantDeploy, ...rest } = body
    Object.assign(app, rest, { updated_at: nowIso() })
    if (typeof domains === 'string') app.fqdn = domains
    if (truthy(instantDeploy)) queueDeployment(ctx.state, app)
    return ok({ uuid: app.uuid })
  }),
  route(['POST'], '/applications/{uuid}/start', ({ state, params, query }) => {
    const app = appOf(state, params.uuid)
    if (!app) return notFound('Application')
    const deploymentUuid = queueDeployment(state, app, { force: truthy(query.force) })
    app.status = 'running:unknown'
    return ok({ message: 'Deployment request queued.', deployment_uuid: deploymentUuid })
  }, true),
  route(['POST'], '/applications/{uuid}/restart', ({ state, params }) => {
    const app = appOf(state, params.uuid)
    if (!app) return notFound('Application')
    const deploymentUuid = queueDeployment(state, app, { restartOnly: true })
    return ok({ message: 'Restart request queued.', deployment_uuid: deploymentUuid })
  }, true),
  route(['POST'], '/applications/{uuid}/stop', ({ state, params }) => {
    const app = appOf(state, params.uuid)
    if (!app) return notFound('Application')
    app.status = 'exited:unhealthy'
    return ok({ message: 'Application stopping request queued.' })
  }, true),
  route(['GET'], '/applications/{uuid}/logs', ({ state, params, query }) => {
    const app = appOf(state, params.uuid)
    if (!app) return notFound('Application')
    if (baseStatus(app.status) !== 'running') return message(400, 'Application is not running.')
    const lines = Math.min(Number(query.lines ?? 100) || 100, 10000)
    const all = Array.from({ length: 250 }, (_, i) =>
      `{"level":30,"time":${1763735400000 + i * 1000},"msg":"request completed","url":"/health","status":200,"n":${i + 1}}`
    )
    return ok({ logs: all.slice(-lines).join('\n') })
  }),
  route(['GET', 'POST', 'PATCH'], '/applications/{uuid}/envs', (ctx) => {
    const app = appOf(ctx.state, ctx.params.uuid)
    if (!app) return notFound('Application')
    const envs = envsOf(ctx.state, app.uuid as string)
    if (ctx.method === 'GET') {
      // Production variables first, then preview ones.
      return ok([...envs.filter((e) => !e.is_preview), ...envs.filter((e) => e.is_preview)].map(showEnv))
    }
    const rejected = rejectUnknown(ctx.body, ENV_FIELDS)
    if (rejected) return rejected
    const body = bodyOf(ctx)
    const invalid = checkEnvBody(body, true)
    if (invalid) return invalid
    const key = String(body.key).trim().replace(/ /g, '_')
    const isPreview = body.is_preview === true
    const existing = envs.find((e) => e.key === key && e.is_preview === isPreview)
    if (ctx.method === 'POST') {
      if (existing) return message(409, 'Environment variable already exists. Use PATCH request to update it.')
      const now = nowIso()
      const env: SimEnvVar = {
        id: nextId(ctx.state),
        uuid: newUuid(),
        key,
        value: (body.value as string | null | undefined) ?? null,
        real_value: (body.value as string | null | undefined) ?? null,
        is_preview: isPreview,
        is_literal: body.is_literal === true,
        is_multiline: body.is_multiline === true,
        is_shown_once: body.is_shown_once === true,
        is_runtime: body.is_runtime !== false,
        is_buildtime: body.is_buildtime !== false,
        is_shared: false,
        is_required: false,
        comment: (body.comment as string | undefined) ?? null,
        version: '4.0.0-beta.239',
        resourceable_type: 'App\\Models\\Application',
        resourceable_id: app.id as number,
        order: null,
        created_at: now,
        updated_at: now,
      }
      envs.push(env)
      return ok({ uuid: env.uuid }, 201)
    }
    if (!existing) return notFound('Environment variable')
    const { key: _key, ...changes } = body
    Object.assign(existing, changes, { updated_at: nowIso() })
    if (changes.value !== undefined) existing.real_value = existing.value
    return ok(showEnv(existing), 201)
  }),
  route(['DELETE'], '/applications/{uuid}/envs/{env_uuid}', ({ state, params }) => {
    const app = appOf(state, params.uuid)
    if (!app) return notFound('Application')
    const envs = envsOf(state, app.uuid as string)
    const index = envs.findIndex((e) => e.uuid === params.env_uuid)
    if (index === -1) return notFound('Environment variable')
    envs.splice(index, 1)
    return ok({ message: 'Environment variable deleted.' })
  }),
]

/** A shown-once variable never has its value returned. */
function showEnv(env: SimEnvVar) {
  return env.is_shown_once ? { ...env, value: null, real_value: null } : env
}
