import { STATUS_CODES, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { problem } from '#exceptions/problem_details'
import { securityHeaders } from '#services/security_headers'

/** Largest request head (request line and headers) the server parses; a larger one is a 431. */
export const MAX_HEADER_BYTES = 16 * 1024

/** Node's parser errors and the answer each gets (anything else is a 400). */
const ANSWERS: Record<string, { status: number; code: string; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'E_HEADERS_TOO_LARGE',
    detail: `The request headers exceed ${MAX_HEADER_BYTES / 1024} KB.`,
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    code: 'E_REQUEST_ENTITY_TOO_LARGE',
    detail: 'The chunk extensions of the request body are too large.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'E_REQUEST_TIMEOUT', detail: 'The request was not received in time.' },
}
const MALFORMED = { status: 400, code: 'E_MALFORMED_REQUEST', detail: 'The request is not valid HTTP/1.1.' }

/**
 * `clientError` listener of the HTTP server: a request Node's parser refused before the
 * application saw it (headers over MAX_HEADER_BYTES, malformed HTTP, a timeout) gets a
 * problem+json with the security headers instead of Node's bare status line, then the
 * connection closes. Nothing is written once an answer on the connection has started.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy()
    return
  }
  const { status, code, detail } = ANSWERS[error.code ?? ''] ?? MALFORMED
  const body = JSON.stringify(problem(status, detail, { code }).body)
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(securityHeaders()).map(([name, value]) => `${name}: ${value}`),
  ]
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
}
