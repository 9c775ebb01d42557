/** One request of the example capture, and what HRVault answered. */
export interface Call {
  method: string
  /** Path with its parameters filled in, e.g. `/api/v1/users/69685543/sleep`. */
  path: string
  query?: Record<string, string | number | boolean>
  headers?: Record<string, string>
  /** JSON body (serialised) or a raw string sent as is. */
  json?: unknown
  raw?: string
}

export interface Answer {
  status: number
  type: string
  text: string
  json?: unknown
}

/** Sends one call to the running server (no redirects followed, cookies only as given). */
export async function send(baseUrl: string, call: Call): Promise<Answer> {
  const url = new URL(call.path, baseUrl)
  // A query written into `path` (a deliberately broken percent-escape) is kept as written.
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, String(value))
  const headers: Record<string, string> = { Accept: 'application/json', ...call.headers }
  let body: string | undefined
  if (call.json !== undefined) {
    headers['Content-Type'] ??= 'application/json'
    body = JSON.stringify(call.json)
  } else if (call.raw !== undefined) {
    headers['Content-Type'] ??= 'application/json'
    body = call.raw
  }
  const response = await fetch(url, { method: call.method, headers, body, redirect: 'manual' })
  const text = await response.text()
  const type = (response.headers.get('content-type') ?? '').split(';')[0].trim()
  let json: unknown
  if (/json/.test(type) && text !== '') {
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
  }
  return { status: response.status, type, text, json }
}

/** A cookie jar with the XSRF header of an admin browser session (the dashboard API needs both). */
export class AdminSession {
  cookies = new Map<string, string>()

  constructor(protected baseUrl: string) {}

  protected remember(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair] = line.split(';')
      const index = pair.indexOf('=')
      const value = pair.slice(index + 1).trim()
      if (value === '') this.cookies.delete(pair.slice(0, index).trim())
      else this.cookies.set(pair.slice(0, index).trim(), value)
    }
  }

  headers(method: string): Record<string, string> {
    const headers: Record<string, string> = { Cookie: [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ') }
    const xsrf = this.cookies.get('XSRF-TOKEN')
    if (method !== 'GET' && xsrf) headers['X-XSRF-TOKEN'] = decodeURIComponent(xsrf)
    return headers
  }

  /** Picks up a session and its XSRF cookie without signing in. */
  async visit() {
    const response = await fetch(new URL('/coolify/api/stats', this.baseUrl), { headers: this.headers('GET'), redirect: 'manual' })
    this.remember(response.headers)
    await response.text()
  }

  async login(email: string, password: string) {
    const page = await fetch(new URL('/admin/login', this.baseUrl), { redirect: 'manual' })
    this.remember(page.headers)
    await page.text()
    const response = await fetch(new URL('/admin/login', this.baseUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { ...this.headers('POST'), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password }).toString(),
    })
    this.remember(response.headers)
    await response.text()
    if (response.status !== 302 && response.status !== 303) throw new Error(`admin login answered ${response.status}`)
    // Any answer of the signed-in session hands out the XSRF cookie its mutations send back.
    const stats = await fetch(new URL('/coolify/api/stats', this.baseUrl), { headers: this.headers('GET'), redirect: 'manual' })
    this.remember(stats.headers)
    await stats.text()
  }
}
