/**
 * JSON calls from the browser to the dashboard API and the admin JSON
 * routes. Same-origin cookies carry the session; mutations send the
 * X-XSRF-TOKEN header read from shield's XSRF-TOKEN cookie.
 */
export class HttpError extends Error {
  constructor(
    public status: number,
    public body: any
  ) {
    super(body?.detail ?? body?.message ?? body?.title ?? `HTTP ${status}`)
  }
}

function xsrfToken(): string | null {
  const match = document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/)
  return match ? decodeURIComponent(match[1]) : null
}

export async function api<T = any>(method: string, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (method !== 'GET') {
    const token = xsrfToken()
    if (token) headers['X-XSRF-TOKEN'] = token
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await fetch(url, {
    method,
    headers,
    credentials: 'same-origin',
    // Polled answers (sync progress) must never come from the HTTP cache.
    cache: 'no-store',
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let parsed: any = null
  if (text) {
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = { detail: text.slice(0, 300) }
    }
  }
  if (!response.ok) throw new HttpError(response.status, parsed)
  return parsed as T
}

export function query(params: Record<string, string | number | boolean | null | undefined>) {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') search.set(key, String(value))
  }
  const text = search.toString()
  return text ? `?${text}` : ''
}
