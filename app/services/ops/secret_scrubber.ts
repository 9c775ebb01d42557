/** Text that replaces a secret value. */
export const REDACTED = '[redacted]'
/** Text that replaces an absolute filesystem path outside the application root. */
export const PATH_PLACEHOLDER = '<path>'
/**
 * Shortest secret matched literally. Shorter values would garble ordinary words (a password
 * `test` in every "test"); a password inside a URL is redacted whatever its length.
 */
export const MIN_SECRET_LENGTH = 8
/** Shortest trailing piece of a secret redacted when the text was cut off after it. */
const MIN_PARTIAL_LENGTH = 4

/**
 * First segments of absolute paths that are filesystem paths, never HRVault URL paths (Linux FHS
 * plus macOS). `/api/v1/…` or `/ops/…` in ordinary output stay untouched.
 */
export const FILESYSTEM_ROOTS = [
  'bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'libx32', 'media', 'mnt', 'nix', 'opt',
  'proc', 'root', 'run', 'sbin', 'snap', 'srv', 'sys', 'tmp', 'usr', 'var',
  'private', 'Users', 'Volumes', 'Library', 'System', 'Applications',
] as const

/** Environment variables whose whole value is a secret (env name → value). */
const SECRET_VARIABLES = ['APP_KEY', 'OPS_TOKEN', 'COOLIFY_TOKEN', 'POLAR_CLIENT_SECRET'] as const
/** Environment variables holding a URL: the URL and its password are secrets. */
const SECRET_URL_VARIABLES = ['DATABASE_URL', 'REDIS_URL'] as const

export interface SecretScrubberOptions {
  /** Values to redact wherever they appear (shorter than MIN_SECRET_LENGTH: ignored). */
  secrets?: Iterable<string | null | undefined>
  /** Application root directories (absolute); each becomes `.` (`<root>/app/x.ts` → `./app/x.ts`). */
  roots?: Iterable<string | null | undefined>
  /** First path segments treated as filesystem roots besides FILESYSTEM_ROOTS (e.g. `work` of `/work/app`). */
  extraFilesystemRoots?: Iterable<string>
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** Characters that end a path: whitespace, quotes, brackets, separators of lists and `file:line:col`. */
const PATH_CHAR = String.raw`[^\s'"\`()<>\[\]{},;:|*?]`
/** URL credentials: `scheme://user:password@` keeps the user and redacts the password. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@'"]*):([^\s/?#@'"]+)@/gi

/**
 * The secrets of an environment (`read` is `env.get`-like): APP_KEY, OPS_TOKEN and every token of
 * OPS_TOKENS (the keys of its JSON object), COOLIFY_TOKEN, POLAR_CLIENT_SECRET, DATABASE_URL and
 * REDIS_URL with their passwords (as written and percent-decoded). Per-user provider tokens are
 * not enumerable and are not included.
 */
export function secretsFromEnvironment(read: (key: string) => unknown): string[] {
  const text = (key: string): string | null => {
    const value = read(key)
    if (value === null || value === undefined) return null
    // Env.schema.secret() values are Secret objects: `release()` gives the string.
    if (typeof value === 'object' && typeof (value as { release?: unknown }).release === 'function') {
      return String((value as { release: () => unknown }).release())
    }
    return typeof value === 'string' ? value : String(value)
  }
  const secrets: string[] = []
  for (const key of SECRET_VARIABLES) {
    const value = text(key)
    if (value) secrets.push(value, value.trim())
  }
  const opsTokens = text('OPS_TOKENS')
  if (opsTokens) {
    try {
      const parsed: unknown = JSON.parse(opsTokens)
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) secrets.push(...Object.keys(parsed))
    } catch {
      // Not JSON: the middleware loads no token from it, so there is no token to hide.
    }
  }
  for (const key of SECRET_URL_VARIABLES) {
    const value = text(key)
    if (!value) continue
    secrets.push(value)
    try {
      const url = new URL(value)
      if (url.password) secrets.push(url.password, safeDecode(url.password))
    } catch {
      // Not a URL: the whole value is already listed.
    }
  }
  return secrets
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/**
 * Removes known secret values and absolute filesystem paths from text shown to operators (console
 * output, log entries), like laravel-kick's PII scrubber but for what this server knows is secret.
 * Secrets become `[redacted]`; a URL's password becomes `[redacted]` whatever its length; the
 * application root becomes `.`; any other absolute path under a filesystem root (`/usr/…`,
 * `/root/…`, `file:///…`) becomes `<path>`, keeping a `:line:col` suffix. URL paths such as
 * `/api/v1/users` are left alone. Pure: no environment, clock or I/O.
 */
export class SecretScrubber {
  readonly #secrets: string[]
  readonly #secretPattern: RegExp | null
  readonly #rootPattern: RegExp | null
  readonly #pathPattern: RegExp

  constructor(options: SecretScrubberOptions = {}) {
    const secrets = new Set<string>()
    for (const secret of options.secrets ?? []) {
      if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH) secrets.add(secret)
    }
    // Longest first, so a URL is replaced whole before the password inside it.
    this.#secrets = [...secrets].sort((a, b) => b.length - a.length)
    this.#secretPattern = this.#secrets.length > 0 ? new RegExp(this.#secrets.map(escapeRegExp).join('|'), 'g') : null

    const roots = new Set<string>()
    for (const root of options.roots ?? []) {
      const trimmed = typeof root === 'string' ? root.replace(/[/\\]+$/, '') : ''
      if (trimmed.startsWith('/') && trimmed.length > 1) roots.add(trimmed)
    }
    const rootList = [...roots].sort((a, b) => b.length - a.length)
    // `file://` + root or root, followed by a separator or anything that cannot continue a name.
    this.#rootPattern =
      rootList.length > 0
        ? new RegExp(String.raw`(?<![\w.~/-])(?:file://)?(?:${rootList.map(escapeRegExp).join('|')})(?=[/\\]|(?![\w.~-]))`, 'g')
        : null

    const names = new Set<string>([...FILESYSTEM_ROOTS, ...(options.extraFilesystemRoots ?? [])])
    const alternatives = [...names].filter((name) => /^[\w.-]+$/.test(name)).map(escapeRegExp).join('|')
    // Not preceded by a host, a word or another slash (URLs, relative paths); at least two segments.
    this.#pathPattern = new RegExp(String.raw`(?<![\w.~/-])(?:file://)?/(?:${alternatives})/${PATH_CHAR}*`, 'g')
  }

  /**
   * The text with secrets and paths replaced. `truncated`: the text was cut off at its end, so a
   * trailing beginning of a secret (4 characters or more) is redacted too.
   */
  scrub(text: string, options: { truncated?: boolean } = {}): string {
    if (text === '') return text
    let result = text
    if (this.#secretPattern) result = result.replace(this.#secretPattern, REDACTED)
    result = result.replace(URL_PASSWORD, `$1:${REDACTED}@`)
    if (options.truncated) result = this.#redactPartialTail(result)
    if (this.#rootPattern) result = result.replace(this.#rootPattern, '.')
    return result.replace(this.#pathPattern, PATH_PLACEHOLDER)
  }

  /** A copy of a JSON-like value with every string (not the object keys) scrubbed. */
  scrubValue<T>(value: T): T {
    if (typeof value === 'string') return this.scrub(value) as T
    if (Array.isArray(value)) return value.map((item) => this.scrubValue(item)) as T
    if (value !== null && typeof value === 'object') {
      const copy: Record<string, unknown> = {}
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) copy[key] = this.scrubValue(inner)
      return copy as T
    }
    return value
  }

  #redactPartialTail(text: string): string {
    let longest = 0
    for (const secret of this.#secrets) {
      for (let length = Math.min(secret.length - 1, text.length); length >= MIN_PARTIAL_LENGTH && length > longest; length--) {
        if (text.endsWith(secret.slice(0, length))) {
          longest = length
          break
        }
      }
    }
    return longest > 0 ? text.slice(0, text.length - longest) + REDACTED : text
  }
}
