/**
 * Which Polar account a payload belongs to. Sleep, Nightly Recharge, exercises and continuous
 * heart rate carry their owner as a `polar_user` (or `polar-user`) URL ending in the Polar user
 * id, e.g. `https://www.polaraccesslink.com/v3/users/64323403` (reference/polar-accesslink.md §0).
 */

const ACCOUNT_KEYS = ['polar_user', 'polar-user']
const USER_URL = /\/v3\/users\/(\d+)\/?$/

/**
 * Deepest level searched: a list wrapper (`{nights: [...]}`) and its items, where every wire shape
 * puts `polar_user`; the items' sample arrays (thousands of entries a day) are never walked.
 */
const MAX_DEPTH = 2

/** The Polar user id in a `polar_user` URL, or null when the value is not such a URL. */
export function polarUserIdOfUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const match = USER_URL.exec(value.trim())
  return match ? match[1] : null
}

/** Adds every Polar user id that a decoded AccessLink answer names as its owner to `into`. */
export function collectPolarUserIds(payload: unknown, into: Set<string>, depth = 0): Set<string> {
  if (depth > MAX_DEPTH || payload === null || typeof payload !== 'object') return into
  if (Array.isArray(payload)) {
    for (const item of payload) {
      if (item === null || typeof item !== 'object') break
      collectPolarUserIds(item, into, depth + 1)
    }
    return into
  }
  const record = payload as Record<string, unknown>
  for (const key of ACCOUNT_KEYS) {
    const id = polarUserIdOfUrl(record[key])
    if (id) into.add(id)
  }
  for (const value of Object.values(record)) {
    if (value !== null && typeof value === 'object') collectPolarUserIds(value, into, depth + 1)
  }
  return into
}
