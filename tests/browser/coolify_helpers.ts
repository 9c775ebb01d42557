import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Group } from '@japa/runner/core'
import type { Page } from 'playwright'
import { logDir } from '#config/paths'
import { opsPrefix } from '#config/surfaces'
import { TOKENS, useTestTokens } from '#tests/functional/ops/helpers'
import { allowPrivateOpsTargets, SIM_UUIDS, useSimulator, type SimulatorHandle } from '#tests/functional/coolify/helpers'
import { baseUrl } from '#tests/browser/helpers'

/** One pino line of a test log: its level number, message and any context fields. */
export type LogLine = { level: number; msg: string } & Record<string, unknown>

/** A log file of pino lines one second apart from 2026-11-21T08:00:00Z, as the app writes them. */
export interface TestLog {
  file: string
  lines: LogLine[]
}

/**
 * The Coolify simulator whose "hrvault" application is this test server, reached through its
 * operations API with the all-scopes token (Coolify's ops proxy and the ops view then talk to us).
 * With `log`, that file is written to the log directory before the group and removed after it.
 */
export function useOpsThroughCoolify(group: Group, log?: TestLog): SimulatorHandle {
  group.setup(async () => {
    const restoreTokens = useTestTokens()
    if (log) await writeLog(log)
    return async () => {
      restoreTokens()
      if (log) await rm(join(logDir, log.file), { force: true })
    }
  })
  allowPrivateOpsTargets(group)
  return useSimulator(group, { opsAppFqdn: baseUrl(), opsToken: TOKENS['*'], opsPrefix })
}

async function writeLog({ file, lines }: TestLog) {
  const time = Date.parse('2026-11-21T08:00:00Z')
  const text = lines.map((line, i) => JSON.stringify({ ...line, time: time + i * 1000, pid: 1, hostname: 'app' }))
  await mkdir(logDir, { recursive: true })
  await writeFile(join(logDir, file), text.join('\n') + '\n')
}

/**
 * On a signed-in page: the ops view of the simulator's "hrvault" application (this server), once
 * it reports healthy, reads `file` in its log viewer, narrowed by `level` and `search` when given.
 */
export async function readOpsLog(page: Page, file: string, filter: { level?: string; search?: string } = {}) {
  await page.goto(`/coolify/apps/${SIM_UUIDS.app}/ops`)
  await page.getByTestId('ops-status').getByText('healthy', { exact: true }).waitFor()
  await page.getByLabel('File').selectOption(file)
  if (filter.level) await page.getByLabel('Level').selectOption(filter.level)
  if (filter.search) await page.getByLabel('Search').fill(filter.search)
  await page.getByRole('button', { name: 'Read' }).click()
  await page.getByTestId('log-entries').waitFor()
}
