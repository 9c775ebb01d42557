/**
 * Seed data of the Coolify simulator: one team with two projects, realistic Coolify v4
 * shapes (applications with fqdn, env vars, deployments, databases with credentials,
 * backup schedules, servers, services). Every uuid is a fixed, readable constant so that
 * tests and the demo can refer to them.
 */

import { application, database, deployment, envVar, resetEnvSeq, server, T0, T1 } from '#simulators/coolify/seed_factories'
import { SIM_UUIDS, type Json, type SimEnvVar } from '#simulators/coolify/seed_types'

export { SIM_UUIDS } from '#simulators/coolify/seed_types'
export type { Json, SimEnvVar } from '#simulators/coolify/seed_types'

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

/** Builds a fresh, mutable simulator state. */
export function buildSeed(options: SeedOptions = {}): SimState {
  resetEnvSeq()
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
