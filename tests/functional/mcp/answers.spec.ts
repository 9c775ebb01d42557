import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import type { Client } from '@modelcontextprotocol/client'
import User from '#models/user'
import SyncRun from '#models/sync_run'
import { serviceApiKey } from '#tests/helpers/fixtures'
import { completeToken, freshDatabase, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'
import { LEGACY, MODERN, connect, restJsonOf, type Era } from './helpers.js'

const TODAY = '2026-03-15'
const USER = 'mcp_answers'

/** One tool call and the REST route that must answer the same JSON. */
interface Case {
  tool: string
  args: Record<string, unknown>
  rest: string
}

/** Every read tool against its REST route, defaults and explicit windows; ids/dates from the data. */
async function cases(rest: (path: string) => Promise<any>): Promise<Case[]> {
  const sleep = await rest('sleep?days=30')
  const activity = await rest('activity')
  const exercises = await rest('exercises')
  const heartRate = await rest('heart-rate')
  const baselines = await rest('baselines')
  const patterns = await rest('patterns')
  const sleepDate = sleep.find((night: any) => night.sleep_score !== null).date
  const heartRateDate = heartRate.find((day: any) => day.sample_count > 0).date
  return [
    { tool: 'get_sleep', args: {}, rest: 'sleep' },
    { tool: 'get_sleep', args: { days: 30 }, rest: 'sleep?days=30' },
    { tool: 'get_sleep', args: { date: sleepDate }, rest: `sleep/${sleepDate}` },
    { tool: 'get_recovery', args: {}, rest: 'recharge' },
    { tool: 'get_recovery', args: { days: 7 }, rest: 'recharge?days=7' },
    { tool: 'get_activity', args: {}, rest: 'activity' },
    { tool: 'get_activity', args: { days: 3 }, rest: 'activity?days=3' },
    { tool: 'get_activity', args: { date: activity[1].date }, rest: `activity/${activity[1].date}` },
    { tool: 'get_exercises', args: {}, rest: 'exercises' },
    { tool: 'get_exercises', args: { days: 365 }, rest: 'exercises?days=365' },
    { tool: 'get_exercises', args: { exercise_id: exercises[0].id }, rest: `exercises/${exercises[0].id}` },
    { tool: 'get_biosensing', args: { metric: 'spo2' }, rest: 'spo2' },
    { tool: 'get_biosensing', args: { metric: 'ecg', days: 10 }, rest: 'ecg?days=10' },
    { tool: 'get_biosensing', args: { metric: 'body_temperature' }, rest: 'temperature/body' },
    { tool: 'get_biosensing', args: { metric: 'skin_temperature', days: 14 }, rest: 'temperature/skin?days=14' },
    { tool: 'get_biosensing', args: { metric: 'heart_rate' }, rest: 'heart-rate' },
    { tool: 'get_biosensing', args: { metric: 'alertness' }, rest: 'sleepwise/alertness' },
    { tool: 'get_biosensing', args: { metric: 'bedtime', days: 30 }, rest: 'sleepwise/bedtime?days=30' },
    { tool: 'get_baselines', args: {}, rest: 'baselines' },
    { tool: 'get_baselines', args: { metric_name: baselines[0].metric_name }, rest: `baselines/${baselines[0].metric_name}` },
    { tool: 'get_patterns', args: {}, rest: 'patterns' },
    { tool: 'get_patterns', args: { pattern_name: patterns[0].pattern_name }, rest: `patterns/${patterns[0].pattern_name}` },
    { tool: 'get_health_insights', args: {}, rest: 'insights' },
    { tool: 'get_today', args: {}, rest: 'today' },
    { tool: 'get_anomalies', args: {}, rest: 'anomalies' },
    { tool: 'check_metric', args: { metric_name: 'hrv_rmssd', value: 12.5 }, rest: 'baselines/check/hrv_rmssd/12.5' },
    { tool: 'check_metric', args: { metric_name: 'resting_hr', value: 55 }, rest: 'baselines/check/resting_hr/55' },
    { tool: 'get_heart_rate', args: {}, rest: 'heart-rate' },
    { tool: 'get_heart_rate', args: { days: 5 }, rest: 'heart-rate?days=5' },
    { tool: 'get_heart_rate', args: { date: heartRateDate }, rest: `heart-rate/${heartRateDate}/samples` },
    { tool: 'get_cardio_load', args: {}, rest: 'cardio-load' },
    { tool: 'get_cardio_load', args: { days: 90 }, rest: 'cardio-load?days=90' },
    { tool: 'get_analytics_status', args: {}, rest: 'analytics/status' },
  ]
}

test.group('MCP | every tool answers the REST route’s JSON', (group) => {
  let ctx: SimulatorContext
  let key: string
  let cleanup: () => Promise<void>

  group.setup(async () => {
    ctx = await startSimulatorContext(TODAY)
    cleanup = await freshDatabase()
    return async () => {
      await ctx.close()
      await cleanup()
    }
  })

  /** A synced user (every type, baselines and patterns computed after the sync) and a service key. */
  group.each.setup(async () => {
    if (key) return
    key = await serviceApiKey()
    const response = await fetch(`http://${process.env.HOST}:${process.env.PORT}/api/v1/users/${USER}/sync/trigger?days=60`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'X-Provider-Token': completeToken(USER) },
    })
    if (response.status !== 200) throw new Error(`sync: ${response.status} ${await response.text()}`)
  })

  const restOf = (client: ApiClient) => async (path: string) => {
    const response = await client.get(`/api/v1/users/${USER}/${path}`).header('X-API-Key', key)
    response.assertStatus(200)
    return response.body()
  }

  test('{$self}: structuredContent equals the REST JSON for the same user and window')
    .with([MODERN, LEGACY] as Era[])
    .run(async ({ client, assert }, era) => {
      const rest = restOf(client)
      const all = await cases(rest)
      const mcp: Client = await connect({ 'X-API-Key': key }, era)
      try {
        for (const { tool, args, rest: path } of all) {
          const expected = await rest(path)
          const result = await mcp.callTool({ name: tool, arguments: { user_id: USER, ...args } })
          const label = `${tool} ${JSON.stringify(args)} = GET ${path}`
          assert.notOk(result.isError, `${label}: ${JSON.stringify(result.content)}`)
          assert.deepEqual(restJsonOf(result.structuredContent, era, expected), expected, label)
          // A list answer is not vacuous: the synced user has data in every window asked for.
          if (Array.isArray(expected)) assert.isAbove(expected.length, 0, label)
          const [summary, json] = result.content as Array<{ type: string; text: string }>
          assert.equal(summary.type, 'text')
          assert.include(summary.text, USER, label)
          assert.deepEqual(JSON.parse(json.text), expected, label)
        }
      } finally {
        await mcp.close()
      }
    })

  test('list summaries name the window, the units and, for stale data, the most recent date', async ({ assert }) => {
    const mcp = await connect({ 'X-API-Key': key })
    try {
      const sleep = await mcp.callTool({ name: 'get_sleep', arguments: { user_id: USER, days: 7 } })
      const text = (sleep.content as Array<{ text: string }>)[0].text
      assert.match(text, /^\d+ sleep records of user mcp_answers from 2026-03-09 to 2026-03-15 \(7 days\), newest first\./)
      assert.include(text, 'Units: sleep stages in hours')
      assert.notInclude(text, 'most recent data')

      // Two weeks later nothing new was synced.
      ctx.setToday('2026-03-29')
      const stale = await mcp.callTool({ name: 'get_recovery', arguments: { user_id: USER, days: 7 } })
      assert.deepEqual(stale.structuredContent, [])
      assert.match((stale.content as Array<{ text: string }>)[0].text, /None in this window\. .*The most recent data is from 2026-03-1[45] \(1[45] days ago\)/)
      const insights = await mcp.callTool({ name: 'get_health_insights', arguments: { user_id: USER } })
      assert.match((insights.content as Array<{ text: string }>)[0].text, /The most recent data is from 2026-03-1[45]/)
    } finally {
      ctx.setToday(TODAY)
      await mcp.close()
    }
  })

  test('trigger_sync queues a sync with the stored Polar token; get_sync_status follows it', async ({ assert }) => {
    const mcp = await connect({ 'X-API-Key': key }, LEGACY)
    try {
      const status = await mcp.callTool({ name: 'get_sync_status', arguments: { user_id: USER } })
      assert.notOk(status.isError)
      const before = status.structuredContent as any
      assert.deepInclude(before, { user_id: USER, connected: true, job: null })
      assert.include(before.latest_run, { status: 'success', trigger: 'api' })

      const queued = await mcp.callTool({ name: 'trigger_sync', arguments: { user_id: USER, days: 7 } })
      assert.notOk(queued.isError, JSON.stringify(queued.content))
      const { state, job_id: jobId } = queued.structuredContent as any
      assert.equal(state, 'queued')
      assert.isString(jobId)

      const followed = await mcp.callTool({ name: 'get_sync_status', arguments: { user_id: USER, job_id: jobId } })
      assert.deepEqual((followed.structuredContent as any).job, { job_id: jobId, state: 'queued' })
      assert.include((followed.content as Array<{ text: string }>)[0].text, `Job ${jobId} is still queued`)

      // No worker runs here, so the job stays queued; the user has exactly the first run.
      const user = await User.findByOrFail('externalId', USER)
      assert.equal(await SyncRun.query().where('userId', user.id).count('* as n').first().then((r) => Number(r!.$extras.n)), 1)
    } finally {
      await mcp.close()
    }
  })
})
