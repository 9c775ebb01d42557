import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { answerClientError, MAX_HEADER_BYTES } from '#exceptions/client_error_response'

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => unknown

/**
 * The node:http server of every web process (bin/server.ts, the test and benchmark servers): the
 * framework's handler behind ReadFastPath, Node's parser limited to MAX_HEADER_BYTES of head, and
 * a problem+json answer to requests the parser refuses. Until the fast path is ready (it resolves
 * services from the booted container) every request goes to the framework.
 */
export function createHttpServer(handler: RequestHandler): Server {
  let fastPath: import('#services/read_fast_path').ReadFastPath | null = null
  // Imported here, not at the top: the services it loads need the booted application.
  const ready = import('#services/read_fast_path')
    .then(async ({ ReadFastPath }) => {
      fastPath = await ReadFastPath.create()
    })
    .catch(async (error) => {
      const { default: logger } = await import('@adonisjs/core/services/logger')
      logger.error({ err: error }, 'read fast path unavailable; the framework answers every request')
    })

  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (request, response) => {
    if (!fastPath?.accepts(request)) return handler(request, response)
    fastPath.serve(request, response).then(
      (served) => served || handler(request, response),
      () => response.headersSent || handler(request, response)
    )
  }).on('clientError', answerClientError)
  fastPathReady.set(server, ready)
  return server
}

const fastPathReady = new WeakMap<Server, Promise<void>>()

/** Resolves once the server's fast path answers (or was found unavailable). */
export function whenFastPathReady(server: Server): Promise<void> {
  return fastPathReady.get(server) ?? Promise.resolve()
}
