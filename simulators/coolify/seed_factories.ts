import { SIM_UUIDS, type Json, type SimEnvVar } from '#simulators/coolify/seed_types'

/**
 * Builders of the simulator's seed objects in Coolify v4 shapes (servers with settings,
 * applications, env vars, deployments with JSON-string logs, databases with credentials).
 */

export const T0 = '2026-11-20T09:00:00.000000Z'
export const T1 = '2026-11-21T14:30:00.000000Z'

export function server(id: number, uuid: string, name: string, ip: string, reachable: boolean): Json {
  return {
    id,
    uuid,
    name,
    description: name === 'localhost' ? "This is the server where Coolify is running on. Don't delete this!" : null,
    ip,
    user: 'root',
    port: 22,
    proxy: { type: 'traefik', status: 'running', force_stop: false },
    high_disk_usage_notification_sent: false,
    unreachable_notification_sent: !reachable,
    unreachable_count: reachable ? 0 : 3,
    validation_logs: null,
    log_drain_notification_sent: false,
    swarm_cluster: null,
    team_id: 0,
    private_key_id: 1,
    created_at: T0,
    updated_at: T1,
    is_coolify_host: id === 0,
    settings: {
      id: id + 1,
      server_id: id,
      is_reachable: reachable,
      is_usable: reachable,
      is_build_server: false,
      is_cloudflare_tunnel: false,
      is_jump_server: false,
      is_logdrain_newrelic_enabled: false,
      logdrain_newrelic_license_key: null,
      is_logdrain_axiom_enabled: false,
      logdrain_axiom_api_key: null,
      is_metrics_enabled: true,
      is_sentinel_enabled: true,
      sentinel_token: `sentinel-token-of-${name}-3b8f0c`,
      sentinel_metrics_refresh_rate_seconds: 10,
      sentinel_metrics_history_days: 7,
      concurrent_builds: 2,
      dynamic_timeout: 3600,
      force_disabled: false,
      wildcard_domain: null,
      server_timezone: 'UTC',
      docker_cleanup_frequency: '0 0 * * *',
      docker_cleanup_threshold: 80,
      delete_unused_volumes: false,
      delete_unused_networks: false,
      created_at: T0,
      updated_at: T1,
    },
  }
}

export function application(opts: {
  id: number
  uuid: string
  name: string
  fqdn: string | null
  environmentId: number
  serverIndex: Json
  status: string
  repo: string
}): Json {
  return {
    id: opts.id,
    uuid: opts.uuid,
    name: opts.name,
    description: null,
    fqdn: opts.fqdn,
    config_hash: 'f4b3b2e0c1d9a8e7',
    git_repository: opts.repo,
    git_branch: 'main',
    git_commit_sha: 'HEAD',
    git_full_url: null,
    docker_registry_image_name: null,
    docker_registry_image_tag: null,
    build_pack: 'nixpacks',
    static_image: 'nginx:alpine',
    install_command: null,
    build_command: null,
    start_command: null,
    ports_exposes: '3333',
    ports_mappings: null,
    base_directory: '/',
    publish_directory: null,
    health_check_enabled: true,
    health_check_path: '/health',
    health_check_port: null,
    health_check_host: 'localhost',
    health_check_method: 'GET',
    health_check_return_code: 200,
    health_check_scheme: 'http',
    health_check_response_text: null,
    health_check_interval: 5,
    health_check_timeout: 5,
    health_check_retries: 10,
    health_check_start_period: 5,
    limits_memory: '0',
    limits_memory_swap: '0',
    limits_memory_swappiness: 60,
    limits_memory_reservation: '0',
    limits_cpus: '0',
    limits_cpuset: null,
    limits_cpu_shares: 1024,
    status: opts.status,
    preview_url_template: '{{pr_id}}.{{domain}}',
    destination_type: 'App\\Models\\StandaloneDocker',
    destination_id: 0,
    destination: {
      id: 0,
      name: 'coolify',
      uuid: 'dst0coolify000000000001',
      network: 'coolify',
      server_id: opts.serverIndex.id,
      server: opts.serverIndex,
    },
    source_id: 0,
    source_type: 'App\\Models\\GithubApp',
    private_key_id: null,
    environment_id: opts.environmentId,
    dockerfile: null,
    dockerfile_location: '/Dockerfile',
    custom_labels: null,
    dockerfile_target_build: null,
    manual_webhook_secret_github: `whsec-github-${opts.name}-5e1d9c`,
    manual_webhook_secret_gitlab: null,
    manual_webhook_secret_bitbucket: null,
    manual_webhook_secret_gitea: null,
    docker_compose_location: '/docker-compose.yaml',
    docker_compose: null,
    docker_compose_raw: null,
    docker_compose_domains: null,
    docker_compose_custom_start_command: null,
    docker_compose_custom_build_command: null,
    swarm_replicas: 1,
    swarm_placement_constraints: null,
    custom_docker_run_options: null,
    post_deployment_command: null,
    post_deployment_command_container: null,
    pre_deployment_command: null,
    pre_deployment_command_container: null,
    watch_paths: null,
    custom_healthcheck_found: false,
    redirect: 'both',
    compose_parsing_version: '3',
    custom_nginx_configuration: null,
    is_http_basic_auth_enabled: false,
    http_basic_auth_username: null,
    http_basic_auth_password: null,
    last_online_at: T1,
    created_at: T0,
    updated_at: T1,
    deleted_at: null,
  }
}

let envSeq = 0

/** Restarts env var ids at 1 for a new seed. */
export function resetEnvSeq() {
  envSeq = 0
}
export function envVar(
  uuid: string,
  key: string,
  value: string,
  resourceId: number,
  extra: Partial<SimEnvVar> = {}
): SimEnvVar {
  envSeq += 1
  return {
    id: envSeq,
    uuid,
    key,
    value,
    real_value: value,
    is_preview: false,
    is_literal: false,
    is_multiline: false,
    is_shown_once: false,
    is_runtime: true,
    is_buildtime: true,
    is_shared: false,
    is_required: false,
    comment: null,
    version: '4.0.0-beta.239',
    resourceable_type: 'App\\Models\\Application',
    resourceable_id: resourceId,
    order: null,
    created_at: T0,
    updated_at: T0,
    ...extra,
  }
}

function deploymentLogs(commit: string, failed: boolean): string {
  const entries = [
    { command: null, output: `Starting deployment of hrvault:main to localhost.`, type: 'stdout', hidden: false },
    { command: 'docker pull ghcr.io/coollabsio/coolify-helper:1.0.8', output: '', type: 'stdout', hidden: true },
    { command: null, output: `Importing hrvault:main (commit sha ${commit}) to /artifacts/xyz.`, type: 'stdout', hidden: false },
    { command: null, output: 'Building docker image started.', type: 'stdout', hidden: false },
    failed
      ? { command: null, output: 'npm error code ERESOLVE', type: 'stderr', hidden: false }
      : { command: null, output: 'Rolling update completed.', type: 'stdout', hidden: false },
  ]
  return JSON.stringify(
    entries.map((e, i) => ({
      ...e,
      timestamp: `2026-11-21T14:3${i}:00.000000Z`,
      batch: i + 1,
      order: i + 1,
    }))
  )
}

export function deployment(opts: {
  id: number
  uuid: string
  app: Json
  status: string
  commit: string
  message: string
  created: string
  finished: string | null
  server: Json
}): Json {
  return {
    id: opts.id,
    application_id: String(opts.app.id),
    deployment_uuid: opts.uuid,
    pull_request_id: 0,
    force_rebuild: false,
    commit: opts.commit,
    status: opts.status,
    is_webhook: false,
    is_api: true,
    created_at: opts.created,
    updated_at: opts.finished ?? opts.created,
    finished_at: opts.finished,
    logs: deploymentLogs(opts.commit, opts.status === 'failed'),
    current_process_id: null,
    restart_only: false,
    git_type: null,
    server_id: opts.server.id,
    application_name: opts.app.name,
    server_name: opts.server.name,
    deployment_url: `/project/${SIM_UUIDS.project}/environment/${SIM_UUIDS.envProduction}/application/${opts.app.uuid}/deployment/${opts.uuid}`,
    destination_id: '0',
    only_this_server: false,
    rollback: false,
    commit_message: opts.message,
  }
}

export function database(opts: {
  id: number
  uuid: string
  name: string
  type: string
  image: string
  status: string
  environmentId: number
  server: Json
  credentials: Json
  internalUrl: string
  externalUrl: string | null
}): Json {
  return {
    id: opts.id,
    uuid: opts.uuid,
    name: opts.name,
    description: null,
    database_type: opts.type,
    image: opts.image,
    status: opts.status,
    server_status: opts.server.settings && (opts.server.settings as Json).is_reachable === true,
    is_public: opts.externalUrl !== null,
    public_port: opts.externalUrl ? 54321 : null,
    ports_mappings: null,
    limits_memory: '0',
    limits_memory_swap: '0',
    limits_memory_swappiness: 60,
    limits_memory_reservation: '0',
    limits_cpus: '0',
    limits_cpuset: null,
    limits_cpu_shares: 1024,
    started_at: T0,
    environment_id: opts.environmentId,
    destination_type: 'App\\Models\\StandaloneDocker',
    destination_id: 0,
    destination: { id: 0, uuid: 'dst0coolify000000000001', server_id: opts.server.id, server: { uuid: opts.server.uuid, name: opts.server.name } },
    internal_db_url: opts.internalUrl,
    external_db_url: opts.externalUrl,
    last_online_at: T1,
    created_at: T0,
    updated_at: T1,
    deleted_at: null,
    ...opts.credentials,
  }
}

