import { spawn, type ChildProcess } from 'node:child_process'
import app from '@adonisjs/core/services/app'
import type { PolarSimulator } from '#simulators/polar/simulator'

/**
 * `node ace queue:work` as a child process against this run's database and queue, talking to the
 * Polar simulator; its output is collected in `output` for failure messages.
 */
export function startQueueWorkerProcess(sim: PolarSimulator, output: string[]): ChildProcess {
  const child = spawn(process.execPath, ['ace', 'queue:work'], {
    cwd: app.appRoot.pathname,
    env: {
      ...process.env,
      POLAR_API_BASE_URL: sim.url,
      POLAR_AUTH_URL: sim.authUrl,
      POLAR_TOKEN_URL: sim.tokenUrl,
      SYNC_ENABLED: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (chunk) => output.push(String(chunk)))
  child.stderr!.on('data', (chunk) => output.push(String(chunk)))
  return child
}
