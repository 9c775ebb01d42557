import { test } from '@japa/runner'
import { AccessLinkClient } from '#services/polar/accesslink_client'
import { addDays } from '#services/polar/local_times'
import { mapActivitySamplesFromSummaries, mapActivitySamplesList } from '#services/polar/mappers/activity_samples_mapper'
import { mapPhysicalInfo } from '#services/polar/mappers/physical_info_mapper'
import { startPolarSimulator, type PolarSimulator } from '#simulators/polar/simulator'

const TODAY = '2026-11-22'
const TOKEN = 'tok-samples-complete'

const client = (sim: PolarSimulator, accessToken = TOKEN) =>
  new AccessLinkClient({ baseUrl: sim.url, accessToken, retryDelayMs: 5, timeoutMs: 5000 })

test.group('Polar client | physical information and activity samples against the simulator', (group) => {
  let sim: PolarSimulator
  group.each.setup(async () => {
    sim = await startPolarSimulator({ today: TODAY })
    return () => sim.close()
  })

  test('physical information: one call, an answer the mapper keys by its modified stamp', async ({ assert }) => {
    const info = await client(sim).getPhysicalInfo()
    assert.lengthOf(sim.requestsTo('physical_info'), 1)
    const row = mapPhysicalInfo(info!)!
    assert.equal(row.measuredAt, `${info!.modified!.slice(0, 19)}Z`)
    assert.isAbove(row.weightKg!, 0)
    assert.isAbove(row.sleepGoalMinutes!, 0)
    // Profile data: an account without data still has its settings.
    assert.isNotNull(await client(sim, 'empty-account').getPhysicalInfo())
    sim.setFault('physical_info', { type: 'status', status: 404, times: 1 })
    assert.isNull(await client(sim).getPhysicalInfo())
  })

  test('the simulated settings change now and then, and stay put in between', async ({ assert }) => {
    const stamps: string[] = []
    for (let n = 0; n < 120; n += 3) {
      sim.setToday(addDays(TODAY, n))
      stamps.push((await client(sim).getPhysicalInfo())!.modified!)
    }
    const versions = new Set(stamps)
    assert.isAbove(versions.size, 1)
    assert.isBelow(versions.size, stamps.length / 2)
    assert.deepEqual([...stamps].sort(), stamps, 'modified never goes back')
  })

  test('activity samples: the /samples calls and the summaries with flags carry the same days', async ({ assert }) => {
    const range = { from: addDays(TODAY, -6), to: TODAY }
    const samples = mapActivitySamplesList(await client(sim).listActivitySamples(range))
    const summaries = mapActivitySamplesFromSummaries(await client(sim).listDailyActivities(range, { samples: true }))
    assert.lengthOf(samples, 7)
    assert.deepEqual(summaries, samples)
    assert.deepEqual(sim.requestsTo('activity_samples')[0].query, range)

    const day = await client(sim).getActivitySamples(addDays(TODAY, -1))
    assert.equal(day!.date, addDays(TODAY, -1))
    // Outside the served window Polar answers 204: no day.
    assert.isNull(await client(sim).getActivitySamples(addDays(TODAY, -400)))
  })
})
