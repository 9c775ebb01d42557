import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * Scopes of the operations API (spec, Surface B authentication table). `*` grants every
 * endpoint; any other scope grants exactly the endpoints listed for it.
 */
export const OPS_SCOPES = [
  'health:read',
  'stats:read',
  'logs:read',
  'queue:read',
  'queue:retry',
  'console:list',
  'console:execute',
] as const

export type OpsScope = (typeof OPS_SCOPES)[number]

/** The identity attached to a request once its bearer token matched a configured token. */
export interface OpsPrincipal {
  /** Label used in audit records: the configured name, or the first characters of the token plus `…`. */
  name: string
  scopes: string[]
}

interface TokenRecord extends OpsPrincipal {
  digest: Buffer
}

/** Result of parsing the token configuration; `warnings` explains entries that were ignored. */
export interface ParsedOpsTokens {
  registry: OpsTokenRegistry
  warnings: string[]
}

const digestOf = (value: string) => createHash('sha256').update(value, 'utf8').digest()

/**
 * Audit name of a token without a configured label: a short prefix plus `…`. Short tokens reveal
 * at most a third of their characters, so the name never gives the token away.
 */
export function defaultTokenName(token: string): string {
  const visible = Math.min(6, Math.floor(token.length / 3))
  return `${token.slice(0, visible)}…`
}

/**
 * Reads the bearer credential of an `Authorization` header. The scheme is matched
 * case-insensitively (RFC 9110 §11.1); anything else (no header, another scheme, an empty
 * credential) yields null.
 */
export function extractBearerToken(header: string | null | undefined): string | null {
  if (typeof header !== 'string') return null
  const match = /^\s*Bearer[ \t]+(\S+)\s*$/i.exec(header)
  return match ? match[1] : null
}

/** True when the principal holds the scope or the wildcard `*`. */
export function principalHasScope(principal: OpsPrincipal, scope: OpsScope): boolean {
  return principal.scopes.includes('*') || principal.scopes.includes(scope)
}

/**
 * The configured operations tokens. Lookup hashes the presented token with SHA-256 and compares
 * it against every configured digest with `timingSafeEqual`, never stopping early, so neither
 * the token's content nor its position leaks through timing.
 */
export class OpsTokenRegistry {
  constructor(protected records: TokenRecord[]) {}

  /** Number of usable tokens. */
  get size() {
    return this.records.length
  }

  /** Names and scopes of every configured token (never the token values). */
  list(): OpsPrincipal[] {
    return this.records.map((record) => ({ name: record.name, scopes: [...record.scopes] }))
  }

  /** The principal of the matching token, or null when the token is unknown. */
  authenticate(presented: string): OpsPrincipal | null {
    const digest = digestOf(presented)
    let found: TokenRecord | null = null
    for (const record of this.records) {
      if (timingSafeEqual(record.digest, digest) && found === null) found = record
    }
    return found ? { name: found.name, scopes: [...found.scopes] } : null
  }

  /**
   * Builds the registry from `OPS_TOKENS` (a JSON object token → array of scopes, or
   * token → `{scopes, name}`) and `OPS_TOKEN` (one token with scope `*`). Invalid entries are
   * skipped with a warning; invalid JSON yields no tokens from `OPS_TOKENS` (fail closed).
   */
  static parse(opsTokens: string | null | undefined, opsToken: string | null | undefined) {
    const warnings: string[] = []
    const records: TokenRecord[] = []
    const seen = new Set<string>()

    const add = (token: string, scopes: string[], name: string | null) => {
      if (seen.has(token)) {
        warnings.push(`duplicate ops token ${defaultTokenName(token)} ignored`)
        return
      }
      seen.add(token)
      records.push({ digest: digestOf(token), scopes, name: name ?? defaultTokenName(token) })
    }

    const raw = typeof opsTokens === 'string' ? opsTokens.trim() : ''
    if (raw !== '') {
      let parsed: unknown
      try {
        parsed = JSON.parse(raw)
      } catch {
        warnings.push('OPS_TOKENS is not valid JSON; no tokens were loaded from it')
      }
      if (parsed !== undefined && (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))) {
        warnings.push('OPS_TOKENS must be a JSON object mapping tokens to scope arrays')
      } else if (parsed !== undefined) {
        for (const [token, value] of Object.entries(parsed as Record<string, unknown>)) {
          const entry = normaliseEntry(value)
          if (token.trim() === '' || /\s/.test(token)) {
            warnings.push('an OPS_TOKENS entry with an empty or whitespace-containing token was ignored')
          } else if (entry === null) {
            warnings.push(`OPS_TOKENS entry ${defaultTokenName(token)} has no valid scope list; ignored`)
          } else {
            const unknown = entry.scopes.filter((s) => s !== '*' && !OPS_SCOPES.includes(s as OpsScope))
            if (unknown.length > 0) {
              warnings.push(`OPS_TOKENS entry ${entry.name ?? defaultTokenName(token)} has unknown scopes: ${unknown.join(', ')}`)
            }
            add(token, entry.scopes, entry.name)
          }
        }
      }
    }

    const single = typeof opsToken === 'string' ? opsToken.trim() : ''
    if (single !== '') add(single, ['*'], null)

    return { registry: new OpsTokenRegistry(records), warnings } satisfies ParsedOpsTokens
  }
}

function normaliseEntry(value: unknown): { scopes: string[]; name: string | null } | null {
  const scopesOf = (list: unknown) =>
    Array.isArray(list) && list.every((s) => typeof s === 'string') ? (list as string[]) : null
  if (Array.isArray(value)) {
    const scopes = scopesOf(value)
    return scopes ? { scopes, name: null } : null
  }
  if (value !== null && typeof value === 'object') {
    const record = value as { scopes?: unknown; name?: unknown }
    const scopes = scopesOf(record.scopes)
    if (!scopes) return null
    const name = typeof record.name === 'string' && record.name.trim() !== '' ? record.name.trim() : null
    return { scopes, name }
  }
  return null
}
