import { cleanupRunDir, dropAll } from './databases.js'
import { killAll } from './processes.js'

/** On Ctrl-C or SIGTERM: stop the bench's processes, drop its databases and run folder, exit 130. */
export function cleanUpOnInterrupt() {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      killAll()
      await dropAll()
      cleanupRunDir()
      process.exit(130)
    })
  }
}
