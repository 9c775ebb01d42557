import { onBeforeUnmount, reactive } from 'vue'
import { api, HttpError, query } from '~/lib/http'
import type { Data } from '@generated/data'

export interface SyncTracker {
  state: 'idle' | 'starting' | 'queued' | 'running' | 'done' | 'error'
  run: Data.Admin.SyncRun | null
  message: string | null
}

/** A run in any state but these has finished (success, partial, failed, rate_limited, interrupted…). */
const UNFINISHED = ['queued', 'running']

/**
 * Sync now with live progress: starts the sync, then polls its run about
 * once a second until it finishes. One tracker per user id.
 */
export function useSyncTrackers(onFinished?: (userId: string) => void) {
  const trackers = reactive<Record<string, SyncTracker>>({})
  const timers = new Map<string, ReturnType<typeof setTimeout>>()

  const tracker = (userId: string) => (trackers[userId] ??= { state: 'idle', run: null, message: null })

  async function poll(userId: string, params: { job?: string; run?: number }) {
    const t = tracker(userId)
    try {
      const result = await api('GET', `/admin/users/${encodeURIComponent(userId)}/sync-status${query(params)}`)
      if (result.state === 'run') {
        t.run = result.run
        t.state = UNFINISHED.includes(result.run.status) && !result.run.finished_at ? 'running' : 'done'
        params = { run: result.run.id }
      } else {
        t.state = 'queued'
      }
    } catch (error) {
      t.state = 'error'
      t.message = error instanceof HttpError ? error.message : 'Lost contact with the server.'
      return
    }
    if (t.state === 'done') {
      t.message = null
      onFinished?.(userId)
      return
    }
    timers.set(userId, setTimeout(() => poll(userId, params), 1000))
  }

  async function start(userId: string) {
    const t = tracker(userId)
    t.state = 'starting'
    t.message = null
    t.run = null
    try {
      const result = await api('POST', `/admin/users/${encodeURIComponent(userId)}/sync`)
      if (result.state === 'running') {
        t.state = 'running'
        t.run = result.run
        t.message = 'A sync of this user was already running; showing its progress.'
        await poll(userId, { run: result.run.id })
      } else {
        t.state = 'queued'
        await poll(userId, { job: result.job_id })
      }
    } catch (error) {
      t.state = 'error'
      t.message = error instanceof HttpError ? error.message : 'The sync could not be started.'
    }
  }

  function follow(userId: string, jobId: string) {
    tracker(userId).state = 'queued'
    void poll(userId, { job: jobId })
  }

  /** Follows a run that was already going when the page opened (started elsewhere, or before a reload). */
  function watch(userId: string, runId: number) {
    const t = tracker(userId)
    if (['starting', 'queued', 'running'].includes(t.state)) return
    t.state = 'running'
    t.message = null
    void poll(userId, { run: runId })
  }

  onBeforeUnmount(() => timers.forEach((timer) => clearTimeout(timer)))

  return { trackers, start, follow, watch }
}
