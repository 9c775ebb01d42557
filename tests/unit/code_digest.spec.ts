import { test } from '@japa/runner'
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { codeDigestOf } from '#services/code_digest'

/** A project tree with the files given (path → content). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'hrvault-digest-'))
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  return root
}

const PROJECT = {
  'app/transformers/sleep_record_transformer.ts': 'export default class {}',
  'config/app.ts': 'export default {}',
  'database/schema.ts': 'export class SleepRecordSchema {}',
  'package-lock.json': '{"lockfileVersion":3}',
  'tests/unit/example.spec.ts': 'test()',
  'README.md': '# project',
}

/**
 * The digest stored renders carry (sleep lines, insights snapshots): it must move with every file
 * that can change how an answer is rendered, and only with those, so a release re-renders exactly
 * when it may render differently.
 */
test.group('codeDigestOf', (group) => {
  const roots: string[] = []
  group.each.teardown(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
  })
  const project = (changes: Record<string, string> = {}) => {
    const root = tree({ ...PROJECT, ...changes })
    roots.push(root)
    return root
  }

  test('the same files give the same digest', ({ assert }) => {
    assert.equal(codeDigestOf(project()), codeDigestOf(project()))
    assert.match(codeDigestOf(project()), /^[\w-]{16}$/)
  })

  test('application code, configuration, the table schema and the locked dependencies each change it', ({ assert }) => {
    const base = codeDigestOf(project())
    for (const path of ['app/transformers/sleep_record_transformer.ts', 'config/app.ts', 'database/schema.ts', 'package-lock.json']) {
      assert.notEqual(codeDigestOf(project({ [path]: `${PROJECT[path as keyof typeof PROJECT]} // changed` })), base, path)
    }
    assert.notEqual(codeDigestOf(project({ 'config/cache.ts': 'export default {}' })), base, 'a new configuration file')
  })

  test('a file moved to another folder with the same content changes it', ({ assert }) => {
    const root = project()
    const before = codeDigestOf(root)
    mkdirSync(join(root, 'app/services'), { recursive: true })
    renameSync(join(root, 'app/transformers/sleep_record_transformer.ts'), join(root, 'app/services/sleep_record_transformer.ts'))
    assert.notEqual(codeDigestOf(root), before)
  })

  test('tests, documentation and other folders do not', ({ assert }) => {
    const base = codeDigestOf(project())
    assert.equal(codeDigestOf(project({ 'tests/unit/example.spec.ts': 'test.skip()', 'README.md': '# changed', 'bench/run.ts': 'run()' })), base)
  })

  test('a compiled build without its sources digests its own files', ({ assert }) => {
    const built = project({ 'database/schema.js': 'export class SleepRecordSchema {}' })
    rmSync(join(built, 'database/schema.ts'))
    const changed = project({ 'database/schema.js': 'export class SleepRecordSchema { changed }' })
    rmSync(join(changed, 'database/schema.ts'))
    assert.notEqual(codeDigestOf(built), codeDigestOf(changed))
  })
})
