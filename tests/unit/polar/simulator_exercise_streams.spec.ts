import { test } from '@japa/runner'
import { mapExerciseSamples, type StoredRoute, type StoredSampleSeries } from '#services/polar/mappers/exercise_samples_mapper'
import type { WireExercise } from '#services/polar/wire_types'
import { startPolarSimulator, type PolarSimulator } from '#simulators/polar/simulator'

const TODAY = '2026-11-22'
const FLAGS = 'samples=true&zones=true&route=true'

async function get(sim: PolarSimulator, path: string, token: string) {
  const response = await fetch(`${sim.url}${path}`, { headers: { Authorization: `Bearer ${token}` } })
  return { status: response.status, body: (await response.json()) as any }
}

/** Great-circle metres between two route points. */
function metres(route: StoredRoute, a: number, b: number) {
  const rad = Math.PI / 180
  const dLat = (route.latitude[b] - route.latitude[a]) * rad
  const dLon = (route.longitude[b] - route.longitude[a]) * rad
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(route.latitude[a] * rad) * Math.cos(route.latitude[b] * rad) * Math.sin(dLon / 2) ** 2
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h))
}

test.group('Polar simulator | exercise samples, zones and route', (group) => {
  let sim: PolarSimulator
  group.setup(async () => {
    sim = await startPolarSimulator({ today: TODAY, window: 60, rateLimit: { short: 100_000, long: 1_000_000 } })
    return () => sim.close()
  })

  /** Every exercise detail of a few users, with all flags. */
  async function details(): Promise<WireExercise[]> {
    const out: WireExercise[] = []
    for (const token of ['tok-runner', 'tok-rider', 'tok-hiker', 'tok-swimmer', 'tok-climber']) {
      const list = (await get(sim, '/v3/exercises', token)).body as WireExercise[]
      for (const summary of list) out.push((await get(sim, `/v3/exercises/${summary.id}?${FLAGS}`, token)).body)
    }
    return out
  }

  test('lists carry no samples, zones or route unless flagged, as Polar', async ({ assert }) => {
    const list = (await get(sim, '/v3/exercises', 'tok-runner')).body as WireExercise[]
    assert.isAbove(list.length, 0)
    for (const exercise of list) {
      assert.notProperty(exercise, 'samples')
      assert.notProperty(exercise, 'route')
      assert.notProperty(exercise, 'heart_rate_zones')
    }
    const flagged = (await get(sim, `/v3/exercises?${FLAGS}`, 'tok-runner')).body as WireExercise[]
    assert.isTrue(flagged.every((exercise) => Array.isArray(exercise.samples)))
    const plain = (await get(sim, `/v3/exercises/${list[0].id}`, 'tok-runner')).body
    assert.notProperty(plain, 'samples')
    assert.notProperty(plain, 'route')
  })

  test('details with the flags: samples for every session, a route exactly for has_route, deterministic', async ({ assert }) => {
    const all = await details()
    assert.isAbove(all.length, 10)
    const outdoor = all.filter((e) => e.has_route)
    const indoor = all.filter((e) => !e.has_route)
    assert.isAbove(outdoor.length, 0)
    assert.isAbove(indoor.length, 0)
    for (const exercise of all) assert.isAbove(exercise.samples!.length, 0)
    for (const exercise of indoor) assert.notProperty(exercise, 'route')
    for (const exercise of outdoor) assert.isAbove(exercise.route!.length, 100)
    assert.deepEqual(await details(), all)
  })

  test('the quirks appear: integer and string sample types, null gaps, RR without a rate, zones from 0 and from 1', async ({ assert }) => {
    const all = await details()
    const types = all.flatMap((e) => e.samples!.map((s) => typeof s['sample-type']))
    assert.includeMembers(types, ['string', 'number'])
    const samples = all.flatMap((e) => e.samples!)
    assert.isTrue(samples.some((s) => s.data!.split(',').includes('null')))
    const rr = samples.filter((s) => String(s['sample-type']) === '11')
    assert.isAbove(rr.length, 0)
    for (const stream of rr) assert.isNull(stream['recording-rate'])
    assert.sameMembers([...new Set(all.map((e) => e.heart_rate_zones![0].index))], [0, 1])
    for (const exercise of all.filter((e) => e.route)) assert.match(exercise.route![1].time!, /^PT\d+(\.\d+)?S$/)
  })

  test('a route is a plausible loop: its length is the distance, one point per heart-rate sample', async ({ assert }) => {
    const outdoor = (await details()).filter((e) => e.route)
    for (const exercise of outdoor) {
      const row = mapExerciseSamples(exercise)!
      const route = JSON.parse(row.route!) as StoredRoute
      const series = JSON.parse(row.samples!) as StoredSampleSeries[]
      const heartRate = series.find((s) => s.sample_type === 0)!
      assert.equal(route.latitude.length, heartRate.data.length)
      let length = 0
      for (let i = 1; i < route.latitude.length; i++) length += metres(route, i - 1, i)
      assert.closeTo(length / exercise.distance!, 1, 0.15, exercise.id)
      // Starts and ends at home, never leaps: no step faster than 60 km/h.
      assert.isBelow(metres(route, 0, route.latitude.length - 1), 60)
      for (let i = 1; i < route.latitude.length; i++) {
        const seconds = route.time_seconds[i]! - route.time_seconds[i - 1]!
        assert.isBelow(metres(route, i - 1, i) / seconds, 60 / 3.6)
      }
      const distance = series.find((s) => s.sample_type === 10)!
      assert.closeTo(distance.data.at(-1)!, length, 1)
    }
  })
})
