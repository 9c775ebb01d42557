import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { AnalyticsService } from '#services/analytics/analytics_service'
import { UserSyncService } from '#services/sync/user_sync_service'
import { UserService } from '#services/user_service'
import { SYNC_TYPES } from '#services/sync/sync_types'
import type { SyncProgress } from '#services/sync/sync_progress'
import { completeToken, simulatorPerTest } from '#tests/functional/sync/simulator_context'

/**
 * Runs a sync of a new user and reads its run's `progress` from the database every 10 ms while it
 * goes (the way the admin UI polls it), returning every distinct value seen and the final one.
 */
async function watchSync(name: string, days = 28) {
  const user = await (await app.container.make(UserService)).findOrCreate(name)
  const seen: SyncProgress[] = []
  let done = false
  const watcher = (async () => {
    while (!done) {
      const row = await db.from('sync_runs').where('user_id', user.id).where('status', 'running').select('progress').first()
      const last = seen[seen.length - 1]
      if (row?.progress && row.progress !== JSON.stringify(last)) seen.push(JSON.parse(row.progress))
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })()
  const outcome = await (await app.container.make(UserSyncService)).sync(user, { token: completeToken(name), days, trigger: 'admin' })
  done = true
  await watcher
  const final = await db.from('sync_runs').where('id', outcome.runId).firstOrFail()
  return { seen, final: JSON.parse(final.progress) as SyncProgress, outcome, final_status: final.status as string }
}

/**
 * The real analytics service, which first reads what the user's running run shows at the moment
 * the recompute starts (the engine's post-sync step, too short for a poll to catch reliably).
 */
async function observeAnalyticsStart() {
  const analytics = await app.container.make(AnalyticsService)
  const recompute = analytics.recomputeAfterSync.bind(analytics)
  const shown: Array<{ status: string; progress: SyncProgress }> = []
  analytics.recomputeAfterSync = async (userId: number) => {
    const run = await db.from('sync_runs').where('user_id', userId).orderBy('id', 'desc').firstOrFail()
    shown.push({ status: run.status, progress: JSON.parse(run.progress) })
    return recompute(userId)
  }
  app.container.swap(AnalyticsService, () => analytics)
  return shown
}

test.group('Sync | live progress', (group) => {
  simulatorPerTest(group, '2026-03-15', { latencyMs: 80 })
  group.each.teardown(() => app.container.restore(AnalyticsService))

  test('a slow sync shows its phases while it runs (listing, details n/m, analytics after the types) and none after', async ({ assert }) => {
    const atAnalytics = await observeAnalyticsStart()
    const { seen, final, outcome, final_status: status } = await watchSync('phases')
    assert.equal(status, 'success')
    assert.isAbove(outcome.results.exercises, 0)
    // Storing takes milliseconds here, so the 250 ms write interval rarely catches it; the slow phases always show.
    const phases = new Set(seen.map((p) => p.phase))
    for (const phase of ['listing', 'details']) assert.isTrue(phases.has(phase as never), `${phase} seen in ${[...phases]}`)
    for (const phase of phases) assert.oneOf(phase, ['listing', 'details', 'storing', 'analytics'])
    // While baselines and patterns are recomputed, the run is still running and says so.
    assert.deepEqual(atAnalytics, [
      { status: 'running', progress: { done: SYNC_TYPES.length, total: SYNC_TYPES.length, current: null, phase: 'analytics', details: null } },
    ])
    for (const p of seen) {
      assert.equal(p.total, SYNC_TYPES.length)
      if (p.phase === 'analytics') assert.isNull(p.current)
      else assert.include(SYNC_TYPES.map((t) => t.key), p.current!)
      if (p.phase === 'details') {
        assert.equal(p.current, 'exercises')
        assert.isAtMost(p.details!.done, p.details!.total)
      } else assert.isNull(p.details)
    }
    // Types move forward only, and analytics comes after every type.
    const done = seen.map((p) => p.done)
    assert.deepEqual(done, [...done].sort((a, b) => a - b))
    assert.deepEqual(final, { done: SYNC_TYPES.length, total: SYNC_TYPES.length, current: null, phase: null, details: null })
  }).timeout(60_000)

  test('nothing is written to the run after it finished', async ({ assert }) => {
    const { outcome } = await watchSync('settled', 7)
    const before = await db.from('sync_runs').where('id', outcome.runId).firstOrFail()
    await new Promise((resolve) => setTimeout(resolve, 600))
    const after = await db.from('sync_runs').where('id', outcome.runId).firstOrFail()
    assert.equal(after.progress, before.progress)
    assert.equal(after.status, 'success')
    assert.isNull(JSON.parse(after.progress).phase)
  }).timeout(60_000)
})
