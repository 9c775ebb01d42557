import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { AdminAccountService } from '#services/admin/admin_account_service'
import { LoginThrottleService } from '#services/admin/login_throttle_service'
import { RateLimitService } from '#services/rate_limit_service'

export const ADMIN_EMAIL = 'admin@example.com'
export const ADMIN_PASSWORD = 'correct horse battery staple'

/** Base URL of the test HTTP server. */
export const baseUrl = () => `http://${env.get('HOST', '127.0.0.1')}:${env.get('PORT', 3333)}`

/**
 * Clears the login and setup counters of the loopback address and the test
 * accounts. With Redis (test:pg) they outlive each test's database transaction.
 */
export async function resetLoginThrottle(emails: string[] = [ADMIN_EMAIL, 'second@example.com', 'cli@example.com', 'owner@example.com']) {
  await new LoginThrottleService(new RateLimitService()).reset('127.0.0.1', emails)
}

export async function createAdmin(email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  const accounts = await app.container.make(AdminAccountService)
  return accounts.create(email, password)
}

export interface PageResponse {
  status: number
  location: string | null
  headers: Headers
  text: string
  /** The Inertia page object of an HTML or X-Inertia response, when there is one. */
  page: { component: string; props: Record<string, any>; url: string; version?: string | null } | null
}

/**
 * A minimal browser for the admin pages over real HTTP: a cookie jar,
 * manual redirects and the X-XSRF-TOKEN header from shield's cookie, like
 * the Inertia client sends it.
 */
export class AdminBrowser {
  cookies = new Map<string, string>()

  protected remember(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';')
      const index = pair.indexOf('=')
      const name = pair.slice(0, index).trim()
      const value = pair.slice(index + 1).trim()
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a))
      if (expired || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  get cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  xsrf() {
    const value = this.cookies.get('XSRF-TOKEN')
    return value ? decodeURIComponent(value) : null
  }

  async request(
    method: string,
    path: string,
    options: { form?: Record<string, string>; inertia?: boolean; xsrf?: boolean; json?: unknown; headers?: Record<string, string> } = {}
  ): Promise<PageResponse> {
    const headers: Record<string, string> = { Accept: 'text/html' }
    if (this.cookies.size) headers.Cookie = this.cookieHeader
    if (options.inertia) {
      headers['X-Inertia'] = 'true'
      headers['X-Requested-With'] = 'XMLHttpRequest'
      headers.Accept = 'text/html, application/xhtml+xml'
    }
    let body: string | undefined
    if (options.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(options.form).toString()
    }
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json'
      headers.Accept = 'application/json'
      body = JSON.stringify(options.json)
    }
    if (method !== 'GET' && options.xsrf !== false) {
      const token = this.xsrf()
      if (token) headers['X-XSRF-TOKEN'] = token
    }
    Object.assign(headers, options.headers)
    const response = await fetch(`${baseUrl()}${path}`, { method, headers, body, redirect: 'manual' })
    this.remember(response.headers)
    const text = await response.text()
    return { status: response.status, location: response.headers.get('location'), headers: response.headers, text, page: parsePage(text) }
  }

  get(path: string, options: { inertia?: boolean } = {}) {
    return this.request('GET', path, options)
  }

  post(path: string, form: Record<string, string> = {}, options: { xsrf?: boolean } = {}) {
    return this.request('POST', path, { form, ...options })
  }

  /** Follows redirects of a GET until a page answers. */
  async visit(path: string): Promise<PageResponse & { path: string }> {
    let current = path
    for (let hops = 0; hops < 5; hops++) {
      const response = await this.get(current)
      if (response.status >= 300 && response.status < 400 && response.location) {
        current = new URL(response.location, baseUrl()).pathname + new URL(response.location, baseUrl()).search
        continue
      }
      return { ...response, path: current }
    }
    throw new Error(`too many redirects from ${path}`)
  }

  async login(email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
    await this.get('/admin/login')
    return this.post('/admin/login', { email, password })
  }
}

/** A browser logged in as a newly created admin. */
export async function loggedInAdmin() {
  await createAdmin()
  const browser = new AdminBrowser()
  await browser.login()
  return browser
}

function parsePage(text: string) {
  const trimmed = text.trim()
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed)
      return parsed && typeof parsed.component === 'string' ? parsed : null
    } catch {
      return null
    }
  }
  const match = text.match(/<script data-page="app" type="application\/json">([\s\S]*?)<\/script>/)
  if (!match) return null
  return JSON.parse(match[1].replace(/\\\//g, '/'))
}
