import { mkdirSync, readFileSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import type { Assert } from '@japa/assert'
import type { Group } from '@japa/runner/core'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright'
import { baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD, createAdmin, resetLoginThrottle } from '#tests/functional/admin/helpers'
import { emptyDatabase } from '#tests/helpers/database'

export { baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD }

/** Debian's Chromium, flags from the toolchain notes (root needs --no-sandbox). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

/**
 * What most admin UI groups need: Chromium, launched once for the group and closed after it, and
 * before each test an emptied database holding just the admin account (emptied again after it).
 * Returns the group's browser.
 */
export function useAdminBrowser(group: Group): () => Browser {
  let browser: Browser | undefined
  group.setup(async () => {
    browser = await launchBrowser()
    return () => browser!.close()
  })
  group.each.setup(async () => {
    await emptyDatabase()
    await createAdmin()
    return emptyDatabase
  })
  return () => browser!
}

export interface OpenPage {
  context: BrowserContext
  page: Page
  /** Console errors and CSP violations seen by the page. */
  problems: string[]
}

/** A fresh browser context (own cookies) at the given width. */
export async function openPage(browser: Browser, width = 1280, height = 900): Promise<OpenPage> {
  const context = await browser.newContext({ viewport: { width, height }, baseURL: baseUrl() })
  const page = await context.newPage()
  page.setDefaultTimeout(20_000)
  const problems: string[] = []
  // The test server uses Vite's dev server without its HMR socket.
  const devServerNoise = (text: string) => /24678|\[vite\]|WebSocket/.test(text)
  const ours = (url: string) => url === '' || url.startsWith(baseUrl())
  page.on('console', (message) => {
    if (message.type() !== 'error' || devServerNoise(message.text())) return
    // Other origins (the simulators' pages) are not ours to judge.
    if (ours(message.location().url)) problems.push(`${message.text()} (${message.location().url})`)
  })
  page.on('pageerror', (error) => {
    if (!devServerNoise(error.message)) problems.push(error.message)
  })
  return { context, page, problems }
}

export async function login(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  await resetLoginThrottle([email])
  await page.goto('/admin/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/admin/login'))
}

/** Saves a full-page screenshot under tmp/screenshots/. */
export async function screenshot(page: Page, name: string) {
  const dir = app.makePath('tmp/screenshots')
  mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true })
}

/** Pixels the page is wider than the viewport (0 when nothing overflows horizontally). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')
}

/**
 * The usual end of a test: the page does not overflow its width and logged no problem; then its
 * context is closed (after a screenshot under tmp/screenshots/ when `shot` names one).
 */
export async function finishPage(assert: Assert, { page, context, problems }: OpenPage, shot?: string) {
  assert.isAtMost(await horizontalOverflow(page), 0, 'horizontal overflow')
  if (shot) await screenshot(page, shot)
  assert.deepEqual(problems, [])
  await context.close()
}

/** One accessibility problem axe-core found, with where it is. */
export interface AxeViolation {
  id: string
  impact: string
  help: string
  nodes: Array<{ target: string; html: string; summary: string }>
}

const AXE_SOURCE = app.makePath('node_modules/axe-core/axe.min.js')

/**
 * Runs axe-core (WCAG 2.x A/AA and best practices) on the page as it is now and returns its
 * serious and critical violations. axe is evaluated through the DevTools protocol rather than
 * added as a script tag: the admin pages' CSP (nonce-only scripts) refuses an inline tag and
 * would log the refusal as a console error.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(readFileSync(AXE_SOURCE, 'utf8'))
  const results = (await page.evaluate(`window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    resultTypes: ['violations'],
  })`)) as { violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; html: string; failureSummary?: string }> }> }
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact!,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(' '), html: n.html.slice(0, 200), summary: n.failureSummary ?? '' })),
    }))
}
