import { mkdirSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright'
import { baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD, resetLoginThrottle } from '#tests/functional/admin/helpers'

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
