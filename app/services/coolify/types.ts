/**
 * The parts of Coolify v4 answers HRVault reads. Coolify adds fields between versions, so
 * every shape is open (`[key: string]: unknown`) and everything else passes through.
 */

export interface CoolifyResourceRef {
  id: number
  uuid: string
  name?: string
  status?: string
  [key: string]: unknown
}

export interface CoolifyEnvironment {
  id: number
  uuid: string
  name: string
  project_id?: number
  [key: string]: unknown
}

export interface CoolifyProject {
  id: number
  uuid: string
  name: string
  environments?: CoolifyEnvironment[]
  [key: string]: unknown
}

export interface CoolifyApplication extends CoolifyResourceRef {
  fqdn?: string | null
  environment_id?: number
}

export interface CoolifyEnvVar {
  uuid: string
  key: string
  value?: string | null
  real_value?: string | null
  is_preview?: boolean
  [key: string]: unknown
}

export interface CoolifyDeployment {
  deployment_uuid: string
  application_id?: string | number | null
  application_name?: string
  status?: string
  commit?: string | null
  commit_message?: string | null
  created_at?: string
  finished_at?: string | null
  logs?: string | null
  [key: string]: unknown
}

export interface CoolifyDatabase extends CoolifyResourceRef {
  environment_id?: number | string | null
  database_type?: string
}

export interface CoolifyServer extends CoolifyResourceRef {
  settings?: { is_reachable?: boolean; is_usable?: boolean; [key: string]: unknown }
}

/** Who performed a dashboard action (the logged-in admin). */
export interface DashboardActor {
  id: number | string
  email: string
}
