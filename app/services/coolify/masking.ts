/**
 * Server-side masking of Coolify secrets (DESIGN §6): env var values, webhook secrets,
 * basic-auth and database passwords, tokens and API keys, whole values that embed secrets
 * (custom `docker run` options, compose files), and the credentials inside any URL in any
 * string. Pure functions; a value leaves unmasked only when `reveal` is true.
 */

export const MASK = '********'

/** Keys whose string value is a secret wherever they appear in a Coolify object. */
const SECRET_KEY = /(password|secret|token|api_key|private_key|license_key)/i
/** Keys whose whole value may embed secrets (`-e KEY=…` run options, compose files with env values). */
const SECRET_VALUE_KEY = /^(custom_docker_run_options|docker_compose_raw|docker_compose)$/i
/** `scheme://` and the authority after it (up to the path, query, fragment or the end of the word). */
const URL_AUTHORITY = /([a-z][a-z0-9+.-]*:\/\/)([^\s/?#"'<>\\]*)/gi

/**
 * Masks the user-info of every URL inside a string: `postgres://user:pass@host/db` →
 * `postgres://user:********@host/db`, `https://ghp_x@github.com` → `https://********@github.com`
 * (a token alone in the user part). URLs without user-info and other text are unchanged.
 */
export function maskUrlCredentials(value: string): string {
  return value.replace(URL_AUTHORITY, (match, scheme: string, authority: string) => {
    const at = authority.lastIndexOf('@')
    if (at < 0) return match
    const userinfo = authority.slice(0, at)
    const colon = userinfo.indexOf(':')
    const masked = colon < 0 ? MASK : `${userinfo.slice(0, colon)}:${MASK}`
    return `${scheme}${masked}${authority.slice(at)}`
  })
}

function maskString(value: unknown): unknown {
  return typeof value === 'string' && value.length > 0 ? MASK : value
}

/** True for a Coolify environment variable object (`{uuid, key, value, is_preview…}`). */
function isEnvVar(obj: Record<string, unknown>): boolean {
  return typeof obj.key === 'string' && 'value' in obj && ('is_preview' in obj || 'is_buildtime' in obj || 'is_runtime' in obj)
}

/** Masks one env var object: `value` and `real_value`. */
export function maskEnvVar<T extends Record<string, unknown>>(env: T): T {
  return { ...env, value: maskString(env.value), real_value: maskString(env.real_value) } as T
}

/**
 * Deep copy of any Coolify answer with every secret masked: env var values; keys matching
 * password/secret/token/api_key/private_key/license_key; `custom_docker_run_options`,
 * `docker_compose_raw` and `docker_compose` whole; URL credentials in every other string
 * (`git_repository`, `*_db_url`, log lines, messages). With `reveal`, the data is returned unchanged.
 */
export function maskSecrets<T>(data: T, reveal = false): T {
  if (reveal) return data
  return walk(data) as T
}

function walk(data: unknown): unknown {
  if (typeof data === 'string') return maskUrlCredentials(data)
  if (Array.isArray(data)) return data.map(walk)
  if (!data || typeof data !== 'object') return data
  const source = data as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(source)) {
    if (typeof value === 'string' && (SECRET_KEY.test(key) || SECRET_VALUE_KEY.test(key))) out[key] = maskString(value)
    else out[key] = walk(value)
  }
  return isEnvVar(source) ? maskEnvVar(out) : out
}
