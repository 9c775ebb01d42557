import type { Logger } from '@adonisjs/core/logger'

/** One MCP tool call as it is logged: who, what, how long, how it ended; never a health value. */
export interface McpToolCallEntry {
  tool: string
  /** External id of the user the call read (null when refused before a user was known). */
  user: string | null
  /** `key:<id>` or `oauth:<client_id>`. */
  credential: string
  /** The API key's name or the OAuth client's name. */
  client: string
  duration_ms: number
  outcome: 'ok' | 'error'
  error_code?: string
}

/** Writes a line per MCP tool call to the application log (info level, key `mcp`). */
export class McpAuditLog {
  record(logger: Logger, entry: McpToolCallEntry) {
    logger.info({ mcp: entry }, 'mcp tool call')
  }
}
