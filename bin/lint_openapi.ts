/*
|--------------------------------------------------------------------------
| Lint the served OpenAPI document
|--------------------------------------------------------------------------
|
| `npm run lint:openapi` writes the document /schema/openapi.json serves
| (`node ace openapi:write`, no server started) to a temporary file and runs
| Spectral (spectral:oas, .spectral.yaml) and Redocly (recommended,
| redocly.yaml) on it through npx at pinned versions, outside package.json.
| Any error or warning of either fails the run.
|
*/
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const SPECTRAL = '@stoplight/spectral-cli@6.16.3'
const REDOCLY = '@redocly/cli@2.77.0'

const root = fileURLToPath(new URL('../', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'hrvault-openapi-lint-'))
const file = join(work, 'openapi.json')
const run = (command: string, args: string[], capture = false) =>
  spawnSync(command, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'] })

let failed = false
try {
  const written = run(process.execPath, ['ace.js', 'openapi:write', file])
  if (written.status !== 0) throw new Error('node ace openapi:write failed')

  process.stdout.write(`\n${SPECTRAL} (spectral:oas)\n`)
  const spectral = run('npx', ['--yes', SPECTRAL, 'lint', '--ruleset', '.spectral.yaml', '--fail-severity', 'warn', file])
  if (spectral.status !== 0) failed = true

  process.stdout.write(`\n${REDOCLY} (recommended)\n`)
  // Redocly exits 0 on warnings: its JSON report's totals decide.
  const redocly = run('npx', ['--yes', REDOCLY, 'lint', '--config', 'redocly.yaml', '--format', 'json', file], true)
  const report = JSON.parse(redocly.stdout || '{}') as {
    totals?: { errors: number; warnings: number }
    problems?: Array<{ ruleId: string; severity: string; message: string; location?: Array<{ pointer?: string }> }>
  }
  for (const problem of report.problems ?? []) {
    process.stdout.write(`  ${problem.severity} ${problem.ruleId}: ${problem.message} ${problem.location?.[0]?.pointer ?? ''}\n`)
  }
  const totals = report.totals ?? { errors: 1, warnings: 0 }
  process.stdout.write(`  ${totals.errors} errors, ${totals.warnings} warnings\n`)
  if (redocly.status !== 0 || totals.errors > 0 || totals.warnings > 0) failed = true
} finally {
  rmSync(work, { recursive: true, force: true })
}
process.stdout.write(failed ? '\nOpenAPI lint failed\n' : '\nOpenAPI lint: 0 errors, 0 warnings\n')
process.exitCode = failed ? 1 : 0
