import { test } from '@japa/runner'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  CONSOLE_OUTPUT_LIMIT_BYTES,
  ConsoleRunner,
  DEFAULT_CONSOLE_COMMANDS,
  parseConsoleAllowlist,
  splitCommandLine,
} from '#services/ops/console_runner'
import { REDACTED, SecretScrubber } from '#services/ops/secret_scrubber'

const LEAKED_SECRET = 'leaked-secret-0123456789abcdef'

/** A stand-in for ace.js: behaves according to the command name it receives. */
const FAKE_ACE = `
const [command, ...args] = process.argv.slice(2)
if (command === 'ok') { console.log('ran ' + JSON.stringify(args)); process.exit(0) }
if (command === 'fail') { console.error('\\u001b[31mboom\\u001b[39m'); process.exit(3) }
if (command === 'slow') { setTimeout(() => {}, 60000) }
if (command === 'flood') { process.stdout.write('y'.repeat(${CONSOLE_OUTPUT_LIMIT_BYTES} + 1000)); }
if (command === 'env') { console.log(process.env.NO_COLOR) }
if (command === 'leak') { console.error('\u001b[2mkey ' + args[0] + ' at ' + __filename + ':1:1\u001b[22m'); process.exit(1) }
if (command === 'leak-at-cut') { process.stdout.write('y'.repeat(${CONSOLE_OUTPUT_LIMIT_BYTES} - 6) + '${LEAKED_SECRET}' + 'z'.repeat(100)) }
`

test.group('Ops console | allowlist and parsing', () => {
  test('defaults to read-only commands and trims the configured list', ({ assert }) => {
    assert.deepEqual(parseConsoleAllowlist(undefined), DEFAULT_CONSOLE_COMMANDS)
    assert.deepEqual(parseConsoleAllowlist(''), DEFAULT_CONSOLE_COMMANDS)
    assert.deepEqual(parseConsoleAllowlist(' list , migration:status,,list'), ['list', 'migration:status'])
  })

  test('splits command lines on whitespace with quotes and nothing else', ({ assert }) => {
    assert.deepEqual(splitCommandLine('sync:status  "user 1" --json'), ['sync:status', 'user 1', '--json'])
    assert.deepEqual(splitCommandLine("list ''"), ['list', ''])
    assert.deepEqual(splitCommandLine('list; rm -rf $HOME'), ['list;', 'rm', '-rf', '$HOME'])
  })
})

test.group('Ops console | running', (group) => {
  let dir = ''
  let runner: ConsoleRunner
  group.setup(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hrvault-console-'))
    await writeFile(join(dir, 'ace.js'), FAKE_ACE)
    runner = new ConsoleRunner({ allowed: ['ok', 'fail', 'slow', 'flood', 'env'], timeoutMs: 1500, cwd: dir })
    return () => rm(dir, { recursive: true, force: true })
  })

  test('runs an allowlisted command with its arguments', async ({ assert }) => {
    const result = await runner.run('ok --flag "two words"')
    assert.isTrue(result.success)
    assert.equal(result.exitCode, 0)
    assert.equal(result.command, 'ok --flag two words')
    assert.equal(result.output.trim(), 'ran ["--flag","two words"]')
  })

  test('reports a failing command as success false with its exit code and no colour codes', async ({ assert }) => {
    const result = await runner.run('fail')
    assert.isFalse(result.success)
    assert.equal(result.exitCode, 3)
    assert.equal(result.output.trim(), 'boom')
  })

  test('stops a command at the timeout', async ({ assert }) => {
    const result = await runner.run('slow')
    assert.isFalse(result.success)
    assert.isTrue(result.timedOut)
    assert.equal(result.exitCode, 124)
    assert.match(result.output, /timed out after 1.5 s/)
  })

  test('caps the output and marks it truncated', async ({ assert }) => {
    const result = await runner.run('flood')
    assert.isTrue(result.truncated)
    assert.match(result.output, /\[output truncated: 1000 more bytes not shown\]$/)
    assert.isAtMost(Buffer.byteLength(result.output), CONSOLE_OUTPUT_LIMIT_BYTES + 100)
  })

  test('asks the child for plain output', async ({ assert }) => {
    assert.equal((await runner.run('env')).output.trim(), '1')
  })

  test('runs at most two commands at once in this process', async ({ assert }) => {
    const slow = [runner.run('slow'), runner.run('slow')]
    await assert.rejects(() => runner.run('ok'), /already running/)
    await Promise.all(slow)
    assert.isTrue((await runner.run('ok')).success)
  }).timeout(20_000)

  test('scrubs secrets and paths from the output and the echoed command', async ({ assert }) => {
    const scrubber = new SecretScrubber({ secrets: [LEAKED_SECRET], roots: [dir] })
    const scrubbing = new ConsoleRunner({
      allowed: ['leak', 'leak-at-cut'],
      timeoutMs: 5000,
      cwd: dir,
      // A CommonJS fake: __filename is the absolute path of the script under the root.
      aceScript: 'ace.cjs',
      scrub: (text, options) => scrubber.scrub(text, options),
    })
    await writeFile(join(dir, 'ace.cjs'), FAKE_ACE)
    const leak = await scrubbing.run(`leak ${LEAKED_SECRET}`)
    assert.equal(leak.command, `leak ${REDACTED}`)
    assert.equal(leak.output.trim(), `key ${REDACTED} at ./ace.cjs:1:1`)

    // The limit cuts the secret after 6 of its characters: the piece is redacted too.
    const cut = await scrubbing.run('leak-at-cut')
    assert.isTrue(cut.truncated)
    assert.notInclude(cut.output, LEAKED_SECRET.slice(0, 6))
    assert.include(cut.output, `y${REDACTED}\n[output truncated:`)
  })

  test('refuses commands outside the allowlist, listing the allowed ones', async ({ assert }) => {
    await assert.rejects(() => runner.run('migration:rollback'), /not allowed\. Allowed commands: ok, fail, slow, flood, env/)
    await assert.rejects(() => runner.run('ok;ls'), /not allowed/)
    await assert.rejects(() => runner.run(''), /not allowed/)
  })
})
