import { performance } from 'node:perf_hooks'
import type { HttpContext } from '@adonisjs/core/http'
import app from '@adonisjs/core/services/app'
import { McpServer, type CallToolResult } from '@modelcontextprotocol/server'
import * as z from 'zod'
import { problemFor } from '#exceptions/problem_details'
import { ClockService } from '#services/clock_service'
import { MCP_TOOLS } from '#services/mcp/mcp_tools'
import { registerMcpPrompts } from '#services/mcp/mcp_prompts'
import { ToolError, userIdInput, type McpTool, type ToolCall } from '#services/mcp/mcp_tool'
import type { McpPrincipal } from '#services/mcp/mcp_principal'
import { McpAuditLog, type McpToolCallEntry } from '#services/mcp/mcp_audit_log'

/** serverInfo: the package's name and version. */
const serverInfo = () => ({ name: 'hrvault', title: 'HRVault', version: app.version?.toString() ?? '0.0.0' })

/** Tells a client where to begin and how user_id works. */
export const MCP_INSTRUCTIONS = [
  'HRVault keeps Polar health data (sleep, Nightly Recharge HRV, activity, training, heart rate, biosensing) and analyses it against personal baselines.',
  'Start with get_health_insights: it summarises the current state, anomalies, patterns, observations and how fresh the data is, and tells you which tool to look at next.',
  'Then drill down with get_recovery, get_sleep, get_activity, get_exercises, get_heart_rate, get_cardio_load, get_biosensing, get_baselines, get_patterns, get_anomalies and check_metric.',
  'user_id: leave it out with a personal API key or an OAuth connection; a service key must name the user.',
  '`days` counts calendar days back from today, today included, with the same defaults and limits as the REST API.',
  'Every answer carries the REST API’s JSON as structured content and a short summary with units; when data is stale, trigger_sync (scope `sync`) queues a sync from Polar and get_sync_status follows it.',
].join(' ')


/**
 * Builds the MCP server for one HTTP request: a fresh McpServer per request (no state shared
 * between clients, see the SDK's advisory on shared transports), whose tools act for the
 * request's principal and read through the request's container.
 */
export class McpServerFactory {
  constructor(protected http: HttpContext) {}

  build(): McpServer {
    const server = new McpServer(serverInfo(), {
      instructions: MCP_INSTRUCTIONS,
      // Tool and prompt lists only change with a deployment (2026-07-28 clients may cache them).
      cacheHints: {
        'tools/list': { ttlMs: 3_600_000, cacheScope: 'private' },
        'prompts/list': { ttlMs: 3_600_000, cacheScope: 'private' },
      },
    })
    for (const tool of MCP_TOOLS) this.register(server, tool)
    registerMcpPrompts(server)
    return server
  }

  protected register(server: McpServer, tool: McpTool) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: z.object({ user_id: userIdInput, ...tool.input }),
        annotations: {
          title: tool.title,
          readOnlyHint: tool.readOnly,
          destructiveHint: false,
          idempotentHint: tool.readOnly,
          openWorldHint: false,
        },
      },
      (args: Record<string, any>) => this.call(tool, args)
    )
  }

  /** Runs one tool call: scope, user, the tool, error mapping and the audit log line. */
  protected async call(tool: McpTool, args: Record<string, any>): Promise<CallToolResult> {
    const principal = this.http.mcpPrincipal
    const started = performance.now()
    const audit: McpToolCallEntry = {
      tool: tool.name,
      user: null,
      credential: principal.credential,
      client: principal.name,
      duration_ms: 0,
      outcome: 'ok',
    }
    try {
      if (!principal.scopes.includes(tool.scope)) {
        throw new ToolError(
          `Missing scope "${tool.scope}": ${tool.name} needs it, and this credential was granted only ${principal.scopes.map((s) => `"${s}"`).join(', ') || 'no scopes'}. Reconnect with the "${tool.scope}" scope.`,
          'E_MISSING_SCOPE'
        )
      }
      const userId = this.userFor(principal, args.user_id)
      audit.user = userId
      const answer = await tool.run(await this.toolCall(userId), args)
      return {
        content: [
          { type: 'text', text: answer.summary },
          { type: 'text', text: JSON.stringify(answer.data) },
        ],
        structuredContent: answer.data,
      }
    } catch (error) {
      audit.outcome = 'error'
      return this.toolError(error, audit)
    } finally {
      audit.duration_ms = Math.round((performance.now() - started) * 10) / 10
      const auditLog = await this.http.containerResolver.make(McpAuditLog)
      auditLog.record(this.http.logger, audit)
    }
  }

  /** The user a call reads: the credential's own user, or the named one for a service key. */
  protected userFor(principal: McpPrincipal, requested: string | undefined): string {
    const own = principal.userExternalId
    if (own === null) {
      if (requested === undefined) {
        throw new ToolError('user_id is required: this service key may read any user, so name one.', 'E_USER_REQUIRED')
      }
      return requested
    }
    if (requested !== undefined && requested !== own) {
      throw new ToolError(
        `This credential is bound to user "${own}" and may not read user "${requested}". Leave user_id out to read "${own}".`,
        'E_FORBIDDEN_USER'
      )
    }
    return own
  }

  protected async toolCall(userId: string): Promise<ToolCall> {
    const resolver = this.http.containerResolver
    return {
      userId,
      principal: this.http.mcpPrincipal,
      http: this.http,
      make: (service) => resolver.make(service as any),
      serialize: (value) => this.http.serialize(value),
      clock: await resolver.make(ClockService),
    }
  }

  /**
   * A tool error result: the REST API's problem (status, code, message, field errors) as text;
   * an unexpected failure is logged and answered without internals, never as a protocol error.
   */
  protected toolError(error: unknown, audit: McpToolCallEntry): CallToolResult {
    if (error instanceof ToolError) {
      audit.error_code = error.code
      return { isError: true, content: [{ type: 'text', text: `${error.message} (${error.code})` }] }
    }
    const problem = problemFor(error)
    audit.error_code = String(problem.body.code ?? problem.status)
    if (problem.status >= 500) this.http.logger.error({ err: error, mcp: { tool: audit.tool } }, 'mcp tool failed')
    const fields = (problem.body.errors ?? []).map((e) => `${e.field}: ${e.message}`)
    const detail = fields.length > 0 ? `${problem.body.detail} ${fields.join('; ')}` : problem.body.detail
    return { isError: true, content: [{ type: 'text', text: `${detail} (${problem.body.code ?? problem.status})` }] }
  }
}
