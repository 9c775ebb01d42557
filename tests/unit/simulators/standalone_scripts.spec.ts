import { test } from '@japa/runner'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/**
 * Starts a script as `npm run simulator` does (no application booted in its process) and resolves
 * with its output once it prints `ready`, or rejects with the output when it exits first.
 */
function startScript(script: string, args: string[], ready: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import=@poppinss/ts-exec', script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    const seen = (chunk: Buffer) => {
      output += chunk.toString()
      if (ready.test(output)) {
        clearTimeout(timer)
        child.kill('SIGTERM')
        resolve(output)
      }
    }
    child.stdout.on('data', seen)
    child.stderr.on('data', seen)
    child.on('exit', () => {
      clearTimeout(timer)
      reject(new Error(`${script} exited before it was ready:\n${output}`))
    })
  })
}

test.group('Standalone scripts', () => {
  test('the Polar simulator starts on its own, without the application', async ({ assert }) => {
    // Its imports reach the data-type catalogue and so the models: none of them may need a booted app.
    const output = await startScript('bin/polar_simulator.ts', ['--port', '0'], /listening on http:\/\/127\.0\.0\.1:\d+/)
    assert.match(output, /POLAR_API_BASE_URL=/)
  }).timeout(30_000)
})
