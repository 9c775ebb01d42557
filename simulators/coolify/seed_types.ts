/** Fixed uuids and shared types of the simulator's seed data. */

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
