/*
|--------------------------------------------------------------------------
| JavaScript entrypoint for running ace commands
|--------------------------------------------------------------------------
|
| HRVault runs on the Node 24 runtime it installs from the npm registry
| (the `node` dependency). When `node ace` is started by an older system
| Node, re-run the same command on the project's runtime.
|
*/
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const major = Number(process.versions.node.split('.')[0])
const projectNode = fileURLToPath(new URL('./node_modules/node/bin/node', import.meta.url))

if (major < 24 && existsSync(projectNode)) {
  const result = spawnSync(projectNode, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  })
  process.exit(result.status ?? 1)
} else {
  await import('@poppinss/ts-exec')
  await import('./bin/console.js')
}
