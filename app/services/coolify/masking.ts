/**
 * Server-side masking of Coolify secrets (DESIGN §6): env var values, webhook secrets,
 * basic-auth and database passwords, tokens and API keys, and the credentials inside
 * database URLs. Pure functions; a value leaves unmasked only when `reveal` is true.
 */

export const MASK = '********'

/** Keys whose string value is a secret wherever they appear in a Coolify object. */
const SECRET_KEY = /(password|secret|token|api_key|private_key|license_key)/i
/** Keys holding connection URLs whose user-info part is a secret. */
const URL_KEY = /_db_url$|_url_with_credentials$/i

/** `postgres://user:pass@host/db` → `postgres://user:********@host/db`; other strings unchanged. */
export function maskUrlCredentials(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^:@/]*):([^@/]*)@/i, (_m, scheme, user) => `${scheme}${user}:${MASK}@`)
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
 * Deep copy of any Coolify answer with every secret masked. Env var values, keys matching
 * password/secret/token/api_key/private_key/license_key, and the password inside
 * `*_db_url` values. With `reveal`, the data is returned unchanged.
 */
export function maskSecrets<T>(data: T, reveal = false): T {
  if (reveal) return data
  return walk(data) as T
}

function walk(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(walk)
  if (!data || typeof data !== 'object') return data
  const source = data as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(source)) {
    if (typeof value === 'string' && SECRET_KEY.test(key)) out[key] = maskString(value)
    else if (typeof value === 'string' && URL_KEY.test(key)) out[key] = maskUrlCredentials(value)
    else out[key] = walk(value)
  }
  return isEnvVar(source) ? maskEnvVar(out) : out
}
