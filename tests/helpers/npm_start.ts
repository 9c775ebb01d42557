import { readFileSync } from 'node:fs'

/** The `npm start` script of package.json: its V8 flags and environment defaults are what production starts with. */
function startScript(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }
  return pkg.scripts.start
}

/** The V8 flags `npm start` puts in front of the user's own NODE_OPTIONS. */
export const NPM_START_NODE_OPTIONS = (() => {
  const match = /NODE_OPTIONS="([^"$]*?)\s*\$NODE_OPTIONS"/.exec(startScript())
  if (!match) throw new Error('package.json "start" sets no default NODE_OPTIONS')
  return match[1]
})()

/** The other environment defaults `npm start` sets (`NAME=${NAME:-value}`, e.g. MALLOC_ARENA_MAX). */
export const NPM_START_ENV: Record<string, string> = Object.fromEntries(
  [...startScript().matchAll(/(\w+)=\$\{\1:-([^}]*)\}/g)].map((m) => [m[1], m[2]])
)
