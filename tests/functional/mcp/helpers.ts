import app from '@adonisjs/core/services/app'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { OAuthAccessTokens, type OAuthAccessGrant } from '#services/mcp/oauth_access_tokens'
import { McpAuditLog, type McpToolCallEntry } from '#services/mcp/mcp_audit_log'

/** The protocol revisions HRVault serves and the tests negotiate: the newest and the previous one. */
export const MODERN = '2026-07-28'
export const LEGACY = '2025-11-25'
export type Era = typeof MODERN | typeof LEGACY

/** Base URL of the functional suite's HTTP server. */
export const baseUrl = () => `http://${process.env.HOST}:${process.env.PORT}`

/**
 * An official MCP SDK client connected over loopback to `<base>/mcp` with the given headers:
 * pinned to 2026-07-28 (`server/discover`, per-request envelope), or the plain 2025 handshake
 * (`initialize`), which negotiates 2025-11-25.
 */
export async function connect(headers: Record<string, string>, era: Era = MODERN, base = baseUrl()): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } })
  const client = new Client(
    { name: 'hrvault-tests', version: '1.0.0' },
    era === MODERN ? { versionNegotiation: { mode: { pin: MODERN } } } : {}
  )
  await client.connect(transport)
  return client
}

/**
 * The REST JSON a tool's structured content carries. On 2026-07-28 it is the REST JSON itself;
 * a 2025-era wire can only carry an object, so the SDK wraps an array answer as `{result: […]}`.
 */
export function restJsonOf(structured: unknown, era: Era, restBody: unknown): unknown {
  if (era === LEGACY && Array.isArray(restBody)) return (structured as { result: unknown }).result
  return structured
}

/** Swaps the OAuth token check for tokens this test hands out (until `restore`). */
export function fakeOAuthTokens(grants: Record<string, OAuthAccessGrant>) {
  class FakeTokens extends OAuthAccessTokens {
    async verify(token: string) {
      return grants[token] ?? null
    }
  }
  app.container.swap(OAuthAccessTokens, () => new FakeTokens(undefined as any))
  return () => app.container.restore(OAuthAccessTokens)
}

/** Collects the audit lines of MCP tool calls (until `restore`). */
export function recordToolCalls() {
  const entries: McpToolCallEntry[] = []
  class Recorder extends McpAuditLog {
    record(_logger: unknown, entry: McpToolCallEntry) {
      entries.push({ ...entry })
    }
  }
  app.container.swap(McpAuditLog, () => new Recorder())
  return Object.assign(() => app.container.restore(McpAuditLog), { entries })
}
