import { request as httpRequest } from 'node:http'

export interface RawRequest {
  method: string
  /** Path + query exactly as sent on the request line (already encoded). */
  path: string
  /** Header lines in order; a name may repeat (duplicated headers). */
  headers: Array<[string, string]>
  body?: Buffer | string
}

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * One request over a fresh loopback connection, with full control of the
 * request line and header lines (repeated names, odd casing, no defaults).
 */
export function send(port: number, req: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const flat: string[] = ['Host', `127.0.0.1:${port}`]
    for (const [name, value] of req.headers) flat.push(name, value)
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body)
    if (body !== undefined && !req.headers.some(([n]) => n.toLowerCase() === 'content-length')) {
      flat.push('Content-Length', String(body.length))
    }
    flat.push('Connection', 'close')
    const outgoing = httpRequest({
      host: '127.0.0.1',
      port,
      method: req.method,
      path: req.path,
      headers: flat as any,
      setHost: false,
      // Read oversized answers too; the tests judge their size themselves.
      maxHeaderSize: 1024 * 1024,
    })
    const timer = setTimeout(() => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        clearTimeout(timer)
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') })
      })
      response.on('error', (error) => {
        clearTimeout(timer)
        reject(error)
      })
    })
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      // The server may answer (413) and close before an oversized body is fully written.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') {
        reject(Object.assign(new Error(`connection closed: ${error.code}`), { code: error.code }))
      } else {
        reject(error)
      }
    })
    if (body !== undefined) outgoing.write(body)
    outgoing.end()
  })
}
