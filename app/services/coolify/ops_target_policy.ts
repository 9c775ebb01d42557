import { lookup } from 'node:dns'
import { lookup as lookupAsync } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/**
 * Where the ops proxy may send an application's OPS_TOKEN. The application's domain and
 * OPS_PREFIX come from Coolify, so anyone who can edit them could otherwise point the proxy
 * (and the token) at an internal service. By default only https to public addresses is
 * allowed; COOLIFY_OPS_ALLOW_PRIVATE=true also allows plain http and loopback, private and
 * link-local addresses (local development, tests, the demo).
 */

/** OPS_PREFIX values the proxy accepts after normalisation: no query, fragment, dot or escape. */
export const OPS_PREFIX_PATTERN = /^\/[A-Za-z0-9/_-]*$/

/** Loopback, private, link-local, CGNAT, documentation, multicast and reserved ranges. */
const NON_PUBLIC = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6')
}

/** True for a globally routable IP address; false for private ones and for anything that is not an IP. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  // IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is checked against the IPv4 ranges by BlockList.
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/** `[::1]` → `::1`: URL keeps the brackets of an IPv6 host. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '')
}

/**
 * Why the proxy must not call this origin, or null when it may. Without `allowPrivate`:
 * https only, and the host (an IP, or every address its name resolves to) must be public.
 * A name that does not resolve is left to the request, which fails as unreachable.
 */
export async function refuseOpsOrigin(origin: URL, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null
  const hint = 'Set COOLIFY_OPS_ALLOW_PRIVATE=true to allow it (development and internal networks only).'
  if (origin.protocol !== 'https:') return `The application's domain is plain http; the ops token is only sent over https. ${hint}`
  const host = bareHostname(origin)
  let addresses: string[]
  if (isIP(host)) {
    addresses = [host]
  } else {
    try {
      addresses = (await lookupAsync(host, { all: true })).map((a) => a.address)
    } catch {
      return null
    }
  }
  if (addresses.some((address) => !isPublicAddress(address))) {
    return `The application's domain points to a loopback, private or link-local address. ${hint}`
  }
  return null
}

/** Raised by the guarded lookup; reported like any other connection failure. */
export class OpsAddressRefusedError extends Error {
  code = 'E_OPS_ADDRESS_REFUSED'
}

/**
 * A `lookup` for the proxy's socket: resolves the name once and connects only to addresses
 * that passed the check, so a DNS answer that changes between the check and the connection
 * (rebinding) cannot reach a private address.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const allowed = addresses.length > 0 && (allowPrivate || addresses.every((a) => isPublicAddress(a.address)))
      if (!allowed) return callback(new OpsAddressRefusedError('address refused'), '', 0)
      if (options.all) return (callback as unknown as (e: null, all: typeof addresses) => void)(null, addresses)
      callback(null, addresses[0].address, addresses[0].family)
    })
  }
}

/**
 * The URL of one ops call: `baseUrl` (domain + OPS_PREFIX) + `path` + `query`. Null when the
 * result would not be exactly that path under the prefix (a `?`, `#`, `..` or escape that
 * changed it), so nothing outside the ops API is ever called with the token.
 */
export function opsRequestUrl(baseUrl: string, path: string, query: Record<string, string | number | undefined>): URL | null {
  const base = new URL(baseUrl)
  const expected = `${base.pathname.replace(/\/+$/, '')}${path}`
  const url = new URL(`${baseUrl}${path}`)
  const smuggled =
    !path.startsWith('/') ||
    /(^|\/)\.\.?(\/|$)/.test(path) ||
    url.origin !== base.origin ||
    url.pathname !== expected ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== ''
  if (smuggled) return null
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value))
  }
  return url
}
