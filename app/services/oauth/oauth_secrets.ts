import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/*
 * Random values of the authorization server. Every one is 256 random bits, so a plain SHA-256
 * is a safe stored form (nothing to brute-force); prefixes tell the kinds apart in logs and
 * let a resource server route a bearer value (`hva_` OAuth access token, `hrv_` API key).
 */
export const TOKEN_PREFIXES = {
  clientId: 'hvc_',
  clientSecret: 'hvs_',
  code: 'hvz_',
  accessToken: 'hva_',
  refreshToken: 'hvr_',
} as const

/** A new random value with a kind prefix: 43 base64url characters after it. */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`
}

/** Hex SHA-256, the stored form of every secret, code and token. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

/** PKCE S256 (RFC 7636 §4.2): BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url')
}

/** Constant-time string equality (false when the lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
