/**
 * Coolify's status strings as people read them. Resources report `state:health`
 * (`running:healthy`, `running:unknown`, `exited:unhealthy`, `restarting`, …); deployments
 * report `queued`, `in_progress`, `finished`, `failed`, `cancelled-by-user`.
 */
export type Tone = 'ok' | 'warn' | 'bad' | ''

const GOOD = new Set(['running', 'finished', 'success', 'healthy', 'reachable', 'enabled'])
const BUSY = new Set(['starting', 'restarting', 'queued', 'in_progress', 'deploying', 'building', 'degraded', 'paused'])
const BAD = new Set(['exited', 'stopped', 'failed', 'error', 'dead', 'removing', 'unreachable'])

export function parseStatus(status: string | null | undefined): { state: string; health: string | null } {
  const [state = '', health = null] = String(status ?? '').split(':')
  return { state: state.trim(), health: health?.trim() || null }
}

/** Badge colour: running and healthy green, running but unhealthy or in transition amber, stopped or failed red. */
export function statusTone(status: string | null | undefined): Tone {
  const { state, health } = parseStatus(status)
  if (GOOD.has(state)) return health === 'unhealthy' ? 'warn' : 'ok'
  if (BUSY.has(state)) return 'warn'
  if (BAD.has(state)) return 'bad'
  return ''
}

/** `running:healthy` → "running (healthy)", `in_progress` → "in progress", `cancelled-by-user` → "cancelled by user". */
export function statusText(status: string | null | undefined): string {
  const { state, health } = parseStatus(status)
  const words = (text: string) => text.replace(/[_-]+/g, ' ')
  if (!state) return 'unknown'
  return health && health !== 'unknown' ? `${words(state)} (${words(health)})` : words(state)
}

export function isRunning(status: string | null | undefined): boolean {
  return ['running', 'starting', 'restarting', 'degraded'].includes(parseStatus(status).state)
}

/** Which of Start / Stop / Restart make sense in a state; all of them when the state is not known. */
export function allowedActions(status: string | null | undefined): { start: boolean; stop: boolean; restart: boolean } {
  const { state } = parseStatus(status)
  if (!state) return { start: true, stop: true, restart: true }
  const running = isRunning(status)
  return { start: !running, stop: running, restart: running }
}

/** True for a git hash; false for a ref such as `HEAD`. */
export function isCommitHash(commit: string | null | undefined): commit is string {
  return typeof commit === 'string' && /^[0-9a-f]{8,40}$/i.test(commit)
}

/** A git commit as 7 characters (anything that is not a hash, like `HEAD`, as it is). */
export function shortCommit(commit: string | null | undefined): string {
  if (!commit) return '—'
  return isCommitHash(commit) ? commit.slice(0, 7) : commit
}
