import vine from '@vinejs/vine'

/*
 * Dashboard API (Surface C) validators. Body fields use Coolify's own names
 * (`is_buildtime`, `domains`, `limits_cpus` …) so they are forwarded unchanged.
 */

/** A Coolify uuid path segment (cuid-like: letters, digits, `-`, `_`). */
const uuidRule = () => vine.string().regex(/^[A-Za-z0-9_-]{1,64}$/)
/** `{env}`: the variable's key or uuid. */
const envRefRule = () => vine.string().regex(/^[A-Za-z0-9_.-]{1,255}$/)
/** `?reveal=true` shows secrets (audited). */
const revealRule = () => vine.boolean().optional()
const flag = () => vine.boolean().optional()

const uuidParams = () => vine.object({ uuid: uuidRule() })

/** Routes with only a `{uuid}` path parameter. */
export const uuidParamValidator = vine.create({ params: uuidParams() })

/** GET routes that mask secrets: `{uuid}` plus optional `reveal`. */
export const revealableShowValidator = vine.create({ params: uuidParams(), reveal: revealRule() })

/** GET /databases */
export const listDatabasesValidator = vine.create({ reveal: revealRule() })

/** POST /applications/{uuid}/deploy — `force` rebuilds without cache. */
export const deployApplicationValidator = vine.create({ params: uuidParams(), force: flag() })

/** POST /applications/{uuid}/start — Coolify's `force` and `instant_deploy`. */
export const startApplicationValidator = vine.create({ params: uuidParams(), force: flag(), instant_deploy: flag() })

/** POST …/stop of applications, databases and services — Coolify's `docker_cleanup`. */
export const stopResourceValidator = vine.create({ params: uuidParams(), docker_cleanup: flag() })

/** POST /services/{uuid}/restart — `latest` pulls the latest images. */
export const restartServiceValidator = vine.create({ params: uuidParams(), latest: flag() })

/** GET /applications/{uuid}/logs — `lines` 1–10000 (Coolify's maximum), default 100. */
export const applicationLogsValidator = vine.create({
  params: uuidParams(),
  lines: vine.number().withoutDecimals().range([1, 10_000]).optional(),
  show_timestamps: flag(),
})

const envFlags = {
  is_preview: flag(),
  is_literal: flag(),
  is_multiline: flag(),
  is_shown_once: flag(),
  is_runtime: flag(),
  is_buildtime: flag(),
  comment: vine.string().maxLength(256).nullable().optional(),
}

/** POST /applications/{uuid}/envs */
export const createEnvValidator = vine.create({
  params: uuidParams(),
  key: vine.string().trim().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).maxLength(255),
  value: vine.string().maxLength(65_535),
  ...envFlags,
})

/** PATCH /applications/{uuid}/envs/{env} — `is_preview` selects the preview variable of that key. */
export const updateEnvValidator = vine.create({
  params: vine.object({ uuid: uuidRule(), env: envRefRule() }),
  value: vine.string().maxLength(65_535).nullable().optional(),
  ...envFlags,
})

/** DELETE /applications/{uuid}/envs/{env} — `?is_preview=true` deletes the preview variable. */
export const deleteEnvValidator = vine.create({
  params: vine.object({ uuid: uuidRule(), env: envRefRule() }),
  is_preview: flag(),
})

/** GET /applications/{uuid}/deployments — `skip` ≥ 0 (default 0), `take` 1–100 (default 10). */
export const listDeploymentsValidator = vine.create({
  params: uuidParams(),
  skip: vine.number().withoutDecimals().range([0, 1_000_000]).optional(),
  take: vine.number().withoutDecimals().range([1, 100]).optional(),
})

/** GET /deployments/{uuid}/logs — Coolify's internal steps only with `include_hidden`. */
export const deploymentLogsValidator = vine.create({ params: uuidParams(), include_hidden: flag() })

/** Coolify backup frequency: a predefined name or a 5-field cron expression. */
const frequencyRule = () =>
  vine
    .string()
    .trim()
    .regex(/^(every_minute|hourly|daily|weekly|monthly|yearly|[\d*/,-]+(\s+[\d*/,-]+){4})$/)

/** POST /databases/{uuid}/backup — run a schedule now, or create one with `frequency`. */
export const triggerBackupValidator = vine.create({
  params: uuidParams(),
  backup_uuid: uuidRule().optional(),
  frequency: frequencyRule().optional(),
})

/** GET /servers/{uuid}/domains — optional `uuid` of one application. */
export const serverDomainsValidator = vine.create({ params: uuidParams(), uuid: uuidRule().optional() })

/** PATCH /applications/{uuid} — Coolify's names: `domains` (not fqdn), `limits_cpus` (not limits_cpu). */
export const updateApplicationValidator = vine.create({
  params: uuidParams(),
  name: vine.string().trim().minLength(1).maxLength(255).optional(),
  description: vine.string().maxLength(1000).nullable().optional(),
  domains: vine.string().maxLength(2000).optional(),
  git_branch: vine.string().trim().maxLength(255).optional(),
  git_commit_sha: vine.string().trim().regex(/^(HEAD|[0-9a-f]{7,40})$/).optional(),
  build_pack: vine.enum(['nixpacks', 'static', 'dockerfile', 'dockercompose']).optional(),
  ports_exposes: vine.string().regex(/^\d{1,5}(,\d{1,5})*$/).optional(),
  health_check_enabled: flag(),
  health_check_path: vine.string().maxLength(255).optional(),
  health_check_port: vine.string().regex(/^\d{1,5}$/).nullable().optional(),
  health_check_interval: vine.number().withoutDecimals().range([1, 3600]).optional(),
  health_check_timeout: vine.number().withoutDecimals().range([1, 300]).optional(),
  health_check_retries: vine.number().withoutDecimals().range([1, 100]).optional(),
  health_check_start_period: vine.number().withoutDecimals().range([0, 3600]).optional(),
  limits_memory: vine.string().regex(/^\d+[bkmg]?$/i).optional(),
  limits_cpus: vine.string().regex(/^\d+(\.\d+)?$/).optional(),
  instant_deploy: flag(),
})

/** PATCH /databases/{uuid} — Coolify's names (`limits_cpus`, `is_public`, `public_port`). */
export const updateDatabaseValidator = vine.create({
  params: uuidParams(),
  name: vine.string().trim().minLength(1).maxLength(255).optional(),
  description: vine.string().maxLength(1000).nullable().optional(),
  image: vine.string().trim().maxLength(255).optional(),
  is_public: flag(),
  public_port: vine.number().withoutDecimals().range([1024, 65_535]).optional(),
  limits_memory: vine.string().regex(/^\d+[bkmg]?$/i).optional(),
  limits_cpus: vine.string().regex(/^\d+(\.\d+)?$/).optional(),
})

/* Ops proxy ------------------------------------------------------------------------------ */

const appParams = () => vine.object({ app_uuid: uuidRule() })

/** /ops/{app_uuid}/… routes without further input. */
export const opsAppValidator = vine.create({ params: appParams() })

/** GET /ops/{app_uuid}/logs/{file} — forwarded to the ops API as-is after these checks. */
export const opsLogFileValidator = vine.create({
  params: vine.object({ app_uuid: uuidRule(), file: vine.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/) }),
  level: vine.string().trim().toUpperCase().in(['TRACE', 'DEBUG', 'INFO', 'WARN', 'WARNING', 'ERROR', 'FATAL']).optional(),
  search: vine.string().maxLength(500).optional(),
  lines: vine.number().withoutDecimals().range([1, 1000]).optional(),
})

/** GET /ops/{app_uuid}/queue/failed — paging forwarded to the ops API. */
export const opsFailedJobsValidator = vine.create({
  params: appParams(),
  page: vine.number().withoutDecimals().min(1).max(1_000_000).optional(),
  per_page: vine.number().withoutDecimals().range([1, 100]).optional(),
})

/** POST /ops/{app_uuid}/console — `{command, args?}` as the ops API takes it. */
export const opsConsoleValidator = vine.create({
  params: appParams(),
  command: vine.string().trim().minLength(1).maxLength(1000),
  args: vine.array(vine.string().maxLength(512)).maxLength(32).optional(),
})

/** POST /ops/{app_uuid}/queue/retry/{id} */
export const opsRetryJobValidator = vine.create({
  params: vine.object({ app_uuid: uuidRule(), id: vine.number().withoutDecimals().min(1).max(Number.MAX_SAFE_INTEGER) }),
})
