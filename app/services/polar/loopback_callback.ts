import { createServer, type Server } from 'node:http'

/** What arrived on the OAuth redirect URI. */
export interface CallbackResult {
  code: string | null
  state: string | null
  error: string | null
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

/** True when the redirect URI points at this machine over plain HTTP (a listener can receive it). */
export function isLoopbackRedirect(redirectUri: string): boolean {
  try {
    const url = new URL(redirectUri)
    return url.protocol === 'http:' && LOOPBACK.has(url.hostname)
  } catch {
    return false
  }
}

/**
 * Reads `code`/`state`/`error` from a pasted redirect URL, or treats the input as a bare
 * authorisation code.
 */
export function parsePastedCallback(input: string): CallbackResult {
  const trimmed = input.trim()
  if (/^https?:\/\//i.test(trimmed)) {
    const url = new URL(trimmed)
    return {
      code: url.searchParams.get('code'),
      state: url.searchParams.get('state'),
      error: url.searchParams.get('error'),
    }
  }
  return { code: trimmed === '' ? null : trimmed, state: null, error: null }
}

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto"><h1>${title}</h1><p>${text}</p></body></html>`

/**
 * A one-shot HTTP listener on a loopback redirect URI (`polar:auth`): resolves with the first
 * request to the URI's path, answers the browser with a short page, then closes. `ready` resolves
 * once it listens.
 */
export class LoopbackCallbackListener {
  #server: Server | null = null
  readonly result: Promise<CallbackResult>
  readonly ready: Promise<void>

  constructor(redirectUri: string, timeoutMs: number) {
    const url = new URL(redirectUri)
    const host = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname.replace(/^\[|\]$/g, '')
    const port = Number(url.port || 80)
    let resolveResult!: (value: CallbackResult) => void
    let rejectResult!: (error: Error) => void
    this.result = new Promise((resolve, reject) => {
      resolveResult = resolve
      rejectResult = reject
    })
    const timer = setTimeout(() => {
      rejectResult(new Error(`No authorisation arrived on ${redirectUri} within ${Math.round(timeoutMs / 1000)} s`))
      void this.close()
    }, timeoutMs)
    timer.unref()

    this.#server = createServer((req, res) => {
      const incoming = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`)
      if (incoming.pathname !== url.pathname) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found')
        return
      }
      const result: CallbackResult = {
        code: incoming.searchParams.get('code'),
        state: incoming.searchParams.get('state'),
        error: incoming.searchParams.get('error'),
      }
      const ok = result.code !== null && result.error === null
      res
        .writeHead(ok ? 200 : 400, { 'Content-Type': 'text/html; charset=utf-8', 'Connection': 'close' })
        .end(
          ok
            ? page('HRVault is connected', 'You can close this tab and return to the terminal.')
            : page('Authorisation failed', 'Polar did not grant access. Return to the terminal for details.')
        )
      clearTimeout(timer)
      resolveResult(result)
      void this.close()
    })
    this.ready = new Promise((resolve, reject) => {
      this.#server!.once('error', reject)
      this.#server!.listen(port, host, () => resolve())
    })
  }

  async close() {
    const server = this.#server
    this.#server = null
    if (!server) return
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
