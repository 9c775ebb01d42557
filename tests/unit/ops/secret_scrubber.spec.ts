import { test } from '@japa/runner'
import { PATH_PLACEHOLDER, REDACTED, SecretScrubber, secretsFromEnvironment } from '#services/ops/secret_scrubber'

const APP_KEY = 'aV3ryS3cretAppKey_0123456789abcdef'
const OPS_TOKEN = 'ops-token-0123456789abcdef0123456789'
const DB_PASSWORD = 'p@ss/w0rd!'
const DATABASE_URL = `postgres://hrvault:${encodeURIComponent(DB_PASSWORD)}@db.internal:5432/hrvault`

const scrubber = new SecretScrubber({
  secrets: secretsFromEnvironment(
    (key) =>
      ({
        APP_KEY: { release: () => APP_KEY },
        OPS_TOKENS: JSON.stringify({ [OPS_TOKEN]: ['*'], 'second-token-abcdefghijklmnopqrstuvwxyz': { scopes: [] } }),
        COOLIFY_TOKEN: '12|coolifyTokenValue',
        DATABASE_URL,
        REDIS_URL: 'redis://:redisPassw0rd@127.0.0.1:6379/0',
        POLAR_CLIENT_SECRET: 'polar-client-secret-value',
      })[key]
  ),
  roots: ['/srv/hrvault/', '/var/lib/hrvault-real'],
  extraFilesystemRoots: ['work'],
})

test.group('Ops scrubber | secrets', () => {
  test('redacts every known secret of the environment', ({ assert }) => {
    const text = [
      `APP_KEY=${APP_KEY}`,
      `Authorization: Bearer ${OPS_TOKEN}`,
      'token second-token-abcdefghijklmnopqrstuvwxyz refused',
      'coolify 12|coolifyTokenValue',
      `connecting to ${DATABASE_URL}`,
      `password ${DB_PASSWORD} and ${encodeURIComponent(DB_PASSWORD)}`,
      'redis auth redisPassw0rd',
      'polar polar-client-secret-value',
    ].join('\n')
    const scrubbed = scrubber.scrub(text)
    for (const secret of [APP_KEY, OPS_TOKEN, 'second-token', 'coolifyTokenValue', 'db.internal', DB_PASSWORD, 'redisPassw0rd', 'polar-client-secret']) {
      assert.notInclude(scrubbed, secret)
    }
    assert.equal(scrubbed.split('\n')[0], `APP_KEY=${REDACTED}`)
    assert.equal(scrubbed.split('\n')[4], `connecting to ${REDACTED}`)
    assert.equal(scrubbed.split('\n')[5], `password ${REDACTED} and ${REDACTED}`)
  })

  test('redacts the password of any URL, keeping the user, whatever its length', ({ assert }) => {
    assert.equal(scrubber.scrub('dsn mysql://app:pw@10.0.0.5/db'), `dsn mysql://app:${REDACTED}@10.0.0.5/db`)
    assert.equal(scrubber.scrub('redis://:short@cache:6379'), `redis://:${REDACTED}@cache:6379`)
    assert.equal(scrubber.scrub('https://example.com/a@b'), 'https://example.com/a@b')
  })

  test('ignores values too short to match safely and other environment keys', ({ assert }) => {
    const short = new SecretScrubber({ secrets: ['test', '', null, undefined, 'abcdefg'] })
    assert.equal(short.scrub('NODE_ENV=test abcdefg'), 'NODE_ENV=test abcdefg')
    assert.deepEqual(secretsFromEnvironment((key) => ({ OPS_TOKENS: 'not json', HOST: '0.0.0.0' })[key]), [])
  })

  test('a text cut off inside a secret loses the beginning of the secret too', ({ assert }) => {
    assert.equal(scrubber.scrub(`key ${APP_KEY.slice(0, 12)}`, { truncated: true }), `key ${REDACTED}`)
    assert.equal(scrubber.scrub(`key ${APP_KEY.slice(0, 12)}`), `key ${APP_KEY.slice(0, 12)}`)
    assert.equal(scrubber.scrub('ends with aV3', { truncated: true }), 'ends with aV3')
  })
})

test.group('Ops scrubber | paths', () => {
  test('the application root becomes relative, with or without file://', ({ assert }) => {
    assert.equal(
      scrubber.scrub('at run (/srv/hrvault/app/jobs/sync_user_job.ts:44:7)'),
      'at run (./app/jobs/sync_user_job.ts:44:7)'
    )
    assert.equal(scrubber.scrub('at file:///srv/hrvault/bin/console.ts:12:3'), 'at ./bin/console.ts:12:3')
    assert.equal(scrubber.scrub('cwd: /srv/hrvault'), 'cwd: .')
    assert.equal(scrubber.scrub('real /var/lib/hrvault-real/storage/db.sqlite'), 'real ./storage/db.sqlite')
    // Another directory that merely starts with the root's name is just a path.
    assert.equal(scrubber.scrub('/srv/hrvault-old/x.js'), `${PATH_PLACEHOLDER}`)
  })

  test('other absolute paths become <path>, keeping line and column', ({ assert }) => {
    assert.equal(
      scrubber.scrub('at Parser.parse (/usr/lib/node_modules/pg-protocol/dist/parser.js:105:30)'),
      `at Parser.parse (${PATH_PLACEHOLDER}:105:30)`
    )
    assert.equal(scrubber.scrub('EACCES: open "/root/.npm/_logs/x.log"'), `EACCES: open "${PATH_PLACEHOLDER}"`)
    assert.equal(scrubber.scrub('PATH=/usr/local/bin:/usr/bin'), `PATH=${PATH_PLACEHOLDER}:${PATH_PLACEHOLDER}`)
    assert.equal(scrubber.scrub('file:///home/me/x.ts'), PATH_PLACEHOLDER)
    assert.equal(scrubber.scrub('other checkout /work/other/app.ts'), `other checkout ${PATH_PLACEHOLDER}`)
  })

  test('URL paths and relative paths in ordinary output stay as they are', ({ assert }) => {
    for (const text of [
      'GET /api/v1/users/alice/sleep 200',
      'POST /ops/console',
      'https://www.polaraccesslink.com/v3/users/123',
      'https://example.com/usr/lib/x',
      'node_modules/pg-protocol/src/parser.ts:395:9',
      'at node:internal/streams/readable:568:12',
      'see ./app/models/user.ts and a/tmp/b',
      'ratio 1/2 and /tmp alone',
    ]) {
      assert.equal(scrubber.scrub(text), text)
    }
  })

  test('scrubs every string of a log entry, keeping keys and other values', ({ assert }) => {
    const entry = {
      line: 3,
      level: 'ERROR',
      message: `boom at /srv/hrvault/app/x.ts:1:1`,
      err: { stack: `Error\n    at /usr/lib/y.js:2:3`, attempts: 2, token: OPS_TOKEN },
      tags: [APP_KEY, null, true],
    }
    assert.deepEqual(scrubber.scrubValue(entry), {
      line: 3,
      level: 'ERROR',
      message: 'boom at ./app/x.ts:1:1',
      err: { stack: `Error\n    at ${PATH_PLACEHOLDER}:2:3`, attempts: 2, token: REDACTED },
      tags: [REDACTED, null, true],
    })
    assert.equal(entry.err.token, OPS_TOKEN, 'the input is not modified')
  })
})
