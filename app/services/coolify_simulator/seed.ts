/**
 * Seed data of the Coolify simulator: one team with two projects, realistic Coolify v4
 * shapes (applications with fqdn, env vars, deployments, databases with credentials,
 * backup schedules, servers, services). Every uuid is a fixed, readable constant so that
 * tests and the demo can refer to them.
 */

export const SIM_UUIDS = {
  project: 'p0hrvault0prj0000000001',
  otherProject: 'p0other0000prj000000002',
  envProduction: 'e0hrvault0prod000000001',
  envStaging: 'e0hrvault0stag000000002',
  envOther: 'e0other0000prod000000003',
  app: 'a0hrvault0app0000000001',
  appNoOps: 'a0marketing0site0000002',
  appOther: 'a0other0000app000000003',
  postgres: 'd0hrvault0pg00000000001',
  redis: 'd0hrvault0redis00000002',
  mysqlOther: 'd0other0000mysql0000003',
  backupSchedule: 'b0hrvault0pg0daily00001',
  backupExecution: 'x0hrvault0pg0exec000001',
  server: 's0localhost000000000001',
  serverOther: 's0edge000000000000000002',
  service: 'v0plausible00000000001',
  serviceOther: 'v0uptimekuma0000000002',
  deploymentFinished: 'dep0finished00000000001',
  deploymentFailed: 'dep0failed0000000000002',
  deploymentRunning: 'dep0running000000000003',
  deploymentOther: 'dep0other00000000000004',
  envOpsPrefix: 'env0ops0prefix000000001',
  envOpsToken: 'env0ops0token0000000002',
  envDatabaseUrl: 'env0database0url0000003',
  envAppKey: 'env0app0key000000000004',
  envPreviewAppKey: 'env0app0key0preview00005',
} as const

export interface SimEnvVar {
  id: number
  uuid: string
  key: string
  value: string | null
  real_value: string | null
  is_preview: boolean
  is_literal: boolean
  is_multiline: boolean
  is_shown_once: boolean
  is_runtime: boolean
  is_buildtime: boolean
  is_shared: boolean
  is_required: boolean
  comment: string | null
  version: string
  resourceable_type: string
  resourceable_id: number
  order: number | null
  created_at: string
  updated_at: string
}

export type Json = Record<string, unknown>

export interface SimState {
  version: string
  team: Json
  projects: Json[]
  environments: Json[]
  servers: Json[]
  applications: Json[]
  envs: Record<string, SimEnvVar[]>
  deployments: Json[]
  databases: Json[]
  backups: Record<string, Json[]>
  services: Json[]
  nextId: number
}

export interface SeedOptions {
  /** fqdn of the seeded HRVault application (comma-separated URLs, first one wins). */
  opsAppFqdn?: string
  /** OPS_TOKEN env var of that application; null leaves it out. */
  opsToken?: string | null
  /** OPS_PREFIX env var of that application; null leaves it out. */
  opsPrefix?: string | null
  version?: string
}

const T0 = '2026-11-20T09:00:00.000000Z'
const T1 = '2026-11-21T14:30:00.000000Z'

function server(id: number, uuid: string, name: string, ip: string, reachable: boolean): Json {
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

function application(opts: {
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
function envVar(
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

function deployment(opts: {
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

function database(opts: {
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

/** Builds a fresh, mutable simulator state. */
export function buildSeed(options: SeedOptions = {}): SimState {
  envSeq = 0
  const opsFqdn = options.opsAppFqdn ?? 'https://hrvault.example.com'
  const opsToken = options.opsToken === undefined ? 'ops-demo-token-7d4c1f0a9b' : options.opsToken
  const opsPrefix = options.opsPrefix === undefined ? '/ops' : options.opsPrefix

  const localhost = server(0, SIM_UUIDS.server, 'localhost', 'host.docker.internal', true)
  const edge = server(1, SIM_UUIDS.serverOther, 'edge-1', '203.0.113.20', false)

  const projects: Json[] = [
    { id: 1, uuid: SIM_UUIDS.project, name: 'HRVault', description: 'Health analytics', team_id: 0, created_at: T0, updated_at: T1 },
    { id: 2, uuid: SIM_UUIDS.otherProject, name: 'Side projects', description: null, team_id: 0, created_at: T0, updated_at: T1 },
  ]
  const environments: Json[] = [
    { id: 1, uuid: SIM_UUIDS.envProduction, name: 'production', project_id: 1, description: null, created_at: T0, updated_at: T1 },
    { id: 2, uuid: SIM_UUIDS.envStaging, name: 'staging', project_id: 1, description: null, created_at: T0, updated_at: T1 },
    { id: 3, uuid: SIM_UUIDS.envOther, name: 'production', project_id: 2, description: null, created_at: T0, updated_at: T1 },
  ]

  const app = application({ id: 1, uuid: SIM_UUIDS.app, name: 'hrvault', fqdn: opsFqdn, environmentId: 1, serverIndex: localhost, status: 'running:healthy', repo: 'acme/hrvault' })
  const marketing = application({ id: 2, uuid: SIM_UUIDS.appNoOps, name: 'marketing-site', fqdn: 'https://www.example.com,https://example.com', environmentId: 2, serverIndex: localhost, status: 'exited:unhealthy', repo: 'acme/site' })
  const other = application({ id: 3, uuid: SIM_UUIDS.appOther, name: 'side-project', fqdn: 'https://side.example.org', environmentId: 3, serverIndex: edge, status: 'running:unknown', repo: 'acme/side' })

  const appEnvs: SimEnvVar[] = [
    envVar(SIM_UUIDS.envAppKey, 'APP_KEY', 'base64:q9Lr0c2G1mN5b7uXvYtZ3wA8sD4fH6jK', 1),
    envVar(SIM_UUIDS.envDatabaseUrl, 'DATABASE_URL', 'postgres://hrvault:pg-secret-Zq81@d0hrvault0pg00000000001:5432/hrvault', 1, { is_buildtime: false }),
  ]
  if (opsPrefix !== null) appEnvs.push(envVar(SIM_UUIDS.envOpsPrefix, 'OPS_PREFIX', opsPrefix, 1))
  if (opsToken !== null) appEnvs.push(envVar(SIM_UUIDS.envOpsToken, 'OPS_TOKEN', opsToken, 1, { is_buildtime: false }))
  appEnvs.push(envVar(SIM_UUIDS.envPreviewAppKey, 'APP_KEY', 'base64:preview0key0does0not0matter00000', 1, { is_preview: true }))

  const deployments = [
    deployment({ id: 1, uuid: SIM_UUIDS.deploymentFinished, app, status: 'finished', commit: '9f3c2a1b7e6d5c4b3a29180f7e6d5c4b3a291801', message: 'feat: baselines', created: '2026-11-19T10:00:00.000000Z', finished: '2026-11-19T10:03:12.000000Z', server: localhost }),
    deployment({ id: 2, uuid: SIM_UUIDS.deploymentFailed, app, status: 'failed', commit: '1a2b3c4d5e6f708192a3b4c5d6e7f80912a3b4c5', message: 'chore: bump deps', created: '2026-11-20T10:00:00.000000Z', finished: '2026-11-20T10:01:40.000000Z', server: localhost }),
    deployment({ id: 3, uuid: SIM_UUIDS.deploymentRunning, app, status: 'in_progress', commit: 'HEAD', message: 'fix: sleep window', created: '2026-11-21T14:30:00.000000Z', finished: null, server: localhost }),
    deployment({ id: 4, uuid: SIM_UUIDS.deploymentOther, app: other, status: 'finished', commit: 'abcdef0123456789abcdef0123456789abcdef01', message: 'init', created: '2026-11-18T08:00:00.000000Z', finished: '2026-11-18T08:02:00.000000Z', server: edge }),
  ]

  const databases = [
    database({
      id: 1, uuid: SIM_UUIDS.postgres, name: 'hrvault-db', type: 'standalone-postgresql', image: 'postgres:16-alpine', status: 'running:healthy', environmentId: 1, server: localhost,
      credentials: { postgres_user: 'hrvault', postgres_password: 'pg-secret-Zq81', postgres_db: 'hrvault', postgres_initdb_args: null, postgres_host_auth_method: null, postgres_conf: null, init_scripts: null },
      internalUrl: `postgres://hrvault:pg-secret-Zq81@${SIM_UUIDS.postgres}:5432/hrvault`,
      externalUrl: 'postgres://hrvault:pg-secret-Zq81@203.0.113.10:54321/hrvault',
    }),
    database({
      id: 2, uuid: SIM_UUIDS.redis, name: 'hrvault-redis', type: 'standalone-redis', image: 'redis:7.2', status: 'running:healthy', environmentId: 1, server: localhost,
      credentials: { redis_username: 'default', redis_password: 'redis-secret-P0w9', redis_conf: null },
      internalUrl: `redis://default:redis-secret-P0w9@${SIM_UUIDS.redis}:6379/0`,
      externalUrl: null,
    }),
    database({
      id: 3, uuid: SIM_UUIDS.mysqlOther, name: 'side-mysql', type: 'standalone-mysql', image: 'mysql:8', status: 'exited:unhealthy', environmentId: 3, server: edge,
      credentials: { mysql_root_password: 'mysql-root-Kx2', mysql_user: 'side', mysql_password: 'mysql-secret-Lm3', mysql_database: 'side', mysql_conf: null },
      internalUrl: `mysql://side:mysql-secret-Lm3@${SIM_UUIDS.mysqlOther}:3306/side`,
      externalUrl: null,
    }),
  ]

  const backups: Record<string, Json[]> = {
    [SIM_UUIDS.postgres]: [
      {
        id: 1,
        uuid: SIM_UUIDS.backupSchedule,
        team_id: 0,
        enabled: true,
        save_s3: false,
        frequency: '0 3 * * *',
        database_backup_retention_amount_locally: 7,
        database_backup_retention_days_locally: 0,
        database_backup_retention_max_storage_locally: 0,
        database_backup_retention_amount_s3: 0,
        database_backup_retention_days_s3: 0,
        database_backup_retention_max_storage_s3: 0,
        number_of_backups_locally: 7,
        databases_to_backup: 'hrvault',
        dump_all: false,
        timeout: 3600,
        s3_storage_id: null,
        database_type: 'App\\Models\\StandalonePostgresql',
        database_id: 1,
        created_at: T0,
        updated_at: T1,
        executions: [
          {
            id: 1,
            uuid: SIM_UUIDS.backupExecution,
            scheduled_database_backup_id: 1,
            status: 'success',
            message: null,
            size: 1843200,
            filename: '/data/coolify/backups/hrvault-db/pg-dump-hrvault-1763694000.dmp',
            database_name: 'hrvault',
            s3_uploaded: null,
            local_storage_deleted: false,
            s3_storage_deleted: false,
            finished_at: '2026-11-21T03:00:41.000000Z',
            created_at: '2026-11-21T03:00:00.000000Z',
            updated_at: '2026-11-21T03:00:41.000000Z',
          },
        ],
      },
    ],
    [SIM_UUIDS.redis]: [],
    [SIM_UUIDS.mysqlOther]: [],
  }

  const services: Json[] = [
    { id: 1, uuid: SIM_UUIDS.service, name: 'plausible', description: 'Web analytics', environment_id: 1, server_id: 0, destination_id: 0, destination_type: 'App\\Models\\StandaloneDocker', service_type: 'plausible', status: 'running:healthy', connect_to_docker_network: false, docker_compose_raw: 'services:\n  plausible:\n    image: plausible/analytics\n', config_hash: 'a1b2', created_at: T0, updated_at: T1, deleted_at: null },
    { id: 2, uuid: SIM_UUIDS.serviceOther, name: 'uptime-kuma', description: null, environment_id: 3, server_id: 1, destination_id: 0, destination_type: 'App\\Models\\StandaloneDocker', service_type: 'uptime-kuma', status: 'exited', connect_to_docker_network: false, docker_compose_raw: 'services:\n  uptime-kuma:\n    image: louislam/uptime-kuma:1\n', config_hash: 'c3d4', created_at: T0, updated_at: T1, deleted_at: null },
  ]

  return {
    version: options.version ?? '4.3.10',
    team: { id: 0, name: 'Root Team', description: null, personal_team: true, created_at: T0, updated_at: T1 },
    projects,
    environments,
    servers: [localhost, edge],
    applications: [app, marketing, other],
    envs: {
      [SIM_UUIDS.app]: appEnvs,
      [SIM_UUIDS.appNoOps]: [envVar('env0site0node0env000006', 'NODE_ENV', 'production', 2)],
      [SIM_UUIDS.appOther]: [],
    },
    deployments,
    databases,
    backups,
    services,
    nextId: 100,
  }
}
