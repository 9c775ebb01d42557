import { createHash } from 'node:crypto'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { canonicalJson } from '#services/records/raw_archive_service'
import { DATA_TYPES } from '#services/records/data_types'
import { AdminBrowser, baseUrl, createAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'
import { completeToken, simulatorPerTest } from '#tests/functional/sync/simulator_context'
import { createUser, serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'
import { jsonLines, readZip, type ZipEntry } from '#tests/helpers/zip'

const TODAY = '2026-03-15'

/** A GET over real HTTP with the body as bytes (the API client would decode a ZIP as text). */
async function download(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl()}${path}`, { headers, redirect: 'manual' })
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const csvRows = (bytes: Buffer) => bytes.toString('utf8').split('\r\n').slice(1, -1)

/** The archive's files by name, and its manifest. */
function unpack(entries: ZipEntry[]) {
  const files = new Map(entries.map((entry) => [entry.name, entry.bytes]))
  const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'))
  return { files, manifest }
}

test.group('API v1 | takeout', (group) => {
  simulatorPerTest(group, TODAY)

  const sync = async (client: any, user: string, key: string) =>
    (
      await client
        .post(`/api/v1/users/${user}/sync/trigger?days=28`)
        .header('X-Provider-Token', completeToken(user))
        .header('X-API-Key', key)
    ).assertStatus(200)

  test('the ZIP holds every catalogued type as JSON Lines and CSV; counts equal the API, hashes match the manifest', async ({
    client,
    assert,
  }) => {
    const key = await serviceApiKey()
    await sync(client, 'taker', key)
    await sync(client, 'bystander', key)
    ;(await client.post('/api/v1/users/taker/baselines/calculate').header('X-API-Key', key)).assertStatus(200)
    ;(await client.post('/api/v1/users/taker/patterns/detect').header('X-API-Key', key)).assertStatus(200)
    const user = await User.findByOrFail('externalId', 'taker')

    const response = await download('/api/v1/users/taker/export/takeout', { 'X-API-Key': key })
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('content-type'), 'application/zip')
    assert.equal(response.headers.get('content-disposition'), `attachment; filename="hrvault-taker-${TODAY}.zip"`)
    assert.isNull(response.headers.get('etag'))

    const entries = await readZip(response.body)
    const expectedNames = [...DATA_TYPES.flatMap((type) => [`${type.key}.jsonl`, `${type.key}.csv`]), 'baselines.jsonl', 'patterns.jsonl']
    assert.deepEqual(
      entries.map((entry) => entry.name),
      [...expectedNames, 'manifest.json']
    )
    const { files, manifest } = unpack(entries)
    assert.equal(manifest.format, 'hrvault-takeout/1')
    assert.equal(manifest.user_id, 'taker')
    assert.isFalse(manifest.raw_included)
    assert.equal(manifest.app_version, app.version?.toString())
    assert.match(manifest.generated_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    assert.deepEqual(
      manifest.files.map((file: { name: string }) => file.name),
      expectedNames
    )

    const summary = (await client.get('/api/v1/users/taker/export/summary?days=365').header('X-API-Key', key)).body()
    for (const file of manifest.files) {
      const bytes = files.get(file.name)!
      assert.equal(file.sha256, sha256(bytes), file.name)
      assert.equal(file.bytes, bytes.length, file.name)
      assert.equal(file.rows, file.name.endsWith('.csv') ? csvRows(bytes).length : jsonLines(bytes).length, file.name)
    }
    for (const type of DATA_TYPES) {
      const rows = manifest.files.find((file: { name: string }) => file.name === `${type.key}.jsonl`).rows
      // The API's JSON Lines export of the same data (everything synced lies in the last 365 days).
      const api = await client.get(`/api/v1/users/taker/export/${type.key}.jsonl?days=365`).header('X-API-Key', key)
      api.assertStatus(200)
      assert.lengthOf(api.text().split('\n').filter(Boolean), rows, type.key)
      const [{ n }] = await db.from(type.table).where('user_id', user.id).count('* as n')
      assert.equal(rows, Number(n), type.key)
      assert.equal(manifest.files.find((file: { name: string }) => file.name === `${type.key}.csv`).rows, rows, type.key)
      if (type.key in summary.record_counts) assert.equal(summary.record_counts[type.key], rows, type.key)
    }
    for (const [name, table] of [
      ['baselines.jsonl', 'baselines'],
      ['patterns.jsonl', 'patterns'],
    ]) {
      const [{ n }] = await db.from(table).where('user_id', user.id).count('* as n')
      assert.isAbove(Number(n), 0, table)
      assert.equal(manifest.files.find((file: { name: string }) => file.name === name).rows, Number(n), table)
    }
    assert.isAbove(manifest.files.find((file: { name: string }) => file.name === 'sleep.jsonl').rows, 20)

    // Rows: the table's snake_case columns, JSON text embedded as JSON, no internal user key.
    const nights = jsonLines(files.get('sleep.jsonl')!)
    assert.notProperty(nights[0], 'user_id')
    assert.isArray(nights[0].hypnogram)
    assert.isString(nights[0].date)
    const dates = nights.map((night) => night.date as string)
    assert.deepEqual(dates, [...dates].sort(), 'oldest first')
    const sleepCsv = files.get('sleep.csv')!.toString('utf8')
    assert.equal(sleepCsv.split('\r\n')[0], Object.keys(nights[0]).join(','))
    assert.equal(
      jsonLines(files.get('patterns.jsonl')!).every((row) => !('user_id' in row)),
      true
    )
  }).timeout(120_000)

  test('a user without data gets header-only CSVs and empty JSON Lines, still listed in the manifest', async ({ assert }) => {
    await createUser('empty_taker')
    const response = await download('/api/v1/users/empty_taker/export/takeout')
    assert.equal(response.status, 200)
    const { files, manifest } = unpack(await readZip(response.body))
    for (const type of DATA_TYPES) {
      assert.equal(files.get(`${type.key}.jsonl`)!.length, 0)
      assert.match(files.get(`${type.key}.csv`)!.toString('utf8'), /^id,.*\r\n$/)
    }
    assert.isTrue(manifest.files.every((file: { rows: number }) => file.rows === 0))
    assert.equal(manifest.files.find((file: { name: string }) => file.name === 'sleep.jsonl').sha256, sha256(Buffer.alloc(0)))
  })

  test('unknown user 404, bad raw 422 and another user\'s key 403 are problems before any byte', async ({
    assert,
  }) => {
    const { user, apiKey } = await userWithApiKey()
    const other = await createUser()
    const service = await serviceApiKey()

    const cases: Array<[string, string, number, string | null]> = [
      ['/api/v1/users/nobody_here/export/takeout', service, 404, 'E_UNKNOWN_USER'],
      [`/api/v1/users/${user.externalId}/export/takeout?raw=maybe`, apiKey, 422, null],
      [`/api/v1/users/${other.externalId}/export/takeout`, apiKey, 403, 'E_FORBIDDEN_USER'],
    ]
    for (const [path, key, status, code] of cases) {
      const response = await download(path, { 'X-API-Key': key })
      assert.equal(response.status, status, path)
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/, path)
      const body = JSON.parse(response.body.toString('utf8'))
      if (code) assert.equal(body.code, code, path)
    }
    assert.equal((await download(`/api/v1/users/${user.externalId}/export/takeout`)).status, 401)
    assert.equal((await download(`/api/v1/users/${user.externalId}/export/takeout?raw=false`, { 'X-API-Key': apiKey })).status, 200)
  })

  test('raw=true adds raw/<type>.jsonl: every archived wire item, decompressed, its SHA-256 the archive\'s content hash', async ({
    client,
    assert,
  }) => {
    ;(await client.post('/api/v1/users/raw_taker/sync/trigger?days=7').header('X-Provider-Token', completeToken('raw_taker'))).assertStatus(200)
    const user = await User.findByOrFail('externalId', 'raw_taker')
    const response = await download('/api/v1/users/raw_taker/export/takeout?raw=true')
    assert.equal(response.status, 200)
    const entries = await readZip(response.body)
    const { files, manifest } = unpack(entries)
    assert.isTrue(manifest.raw_included)
    const rawNames = entries.map((entry) => entry.name).filter((name) => name.startsWith('raw/'))
    const archived = (await db.from('raw_payloads').where('user_id', user.id).groupBy('type').select('type').count('* as n')) as Array<{
      type: string
      n: number | string
    }>
    assert.sameMembers(
      rawNames,
      archived.map((row) => `raw/${row.type}.jsonl`)
    )
    assert.include(rawNames, 'raw/sleep.jsonl')
    for (const row of archived) {
      const name = `raw/${row.type}.jsonl`
      const lines = jsonLines(files.get(name)!)
      assert.lengthOf(lines, Number(row.n), name)
      const listed = manifest.files.find((file: { name: string }) => file.name === name)
      assert.equal(listed.rows, Number(row.n), name)
      assert.equal(listed.sha256, sha256(files.get(name)!), name)
      for (const line of lines) {
        assert.equal(line.type, row.type)
        assert.equal(sha256(Buffer.from(canonicalJson(line.payload))), line.content_hash)
        assert.match(line.fetched_at as string, /Z$/)
      }
    }
    assert.equal(entries[entries.length - 1].name, 'manifest.json')
  }).timeout(60_000)

  test('a logged-in admin downloads the same takeout from the users page; anonymous visitors are sent to login', async ({
    assert,
  }) => {
    await resetLoginThrottle()
    const user = await createUser('admin_taker')
    await db.table('sleep_records').insert({ user_id: user.id, date: '2026-03-14', sleep_score: 80, created_at: '2026-03-14 08:00:00' })
    await createAdmin()
    const browser = new AdminBrowser()
    await browser.login()
    assert.equal((await browser.visit('/admin/users')).status, 200)

    const response = await download('/admin/users/admin_taker/takeout', { Cookie: browser.cookieHeader })
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('content-disposition'), `attachment; filename="hrvault-admin_taker-${TODAY}.zip"`)
    const { files, manifest } = unpack(await readZip(response.body))
    assert.equal(jsonLines(files.get('sleep.jsonl')!)[0].sleep_score, 80)
    assert.equal(manifest.user_id, 'admin_taker')

    const anonymous = await download('/admin/users/admin_taker/takeout')
    assert.equal(anonymous.status, 302)
  })
})
