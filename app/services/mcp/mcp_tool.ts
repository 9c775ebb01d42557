import type { HttpContext } from '@adonisjs/core/http'
import * as z from 'zod'
import { USER_ID_PATTERN, isRealCalendarDate } from '#validators/rules'
import { ClockService } from '#services/clock_service'
import type { McpPrincipal, McpScope } from '#services/mcp/mcp_principal'

/** What a tool answers: the REST route's JSON and a short text for the model. */
export interface ToolAnswer {
  /** Exactly the JSON the matching REST route answers (array or object). */
  data: unknown
  summary: string
}

/** What a tool's `run` gets: the user it may read and the request's services. */
export interface ToolCall {
  /** External id of the user the call is about (already checked against the credential). */
  userId: string
  principal: McpPrincipal
  http: HttpContext
  /** A service from the request's container (the HTTP server's, so test swaps apply). */
  make<T>(service: abstract new (...args: any[]) => T): Promise<T>
  /** The REST serializer: a transformer's resource to the JSON the REST route sends. */
  serialize(value: unknown): Promise<any>
  clock: ClockService
}

/** A tool's definition; its input gains `user_id` when it is registered. */
export interface McpTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string
  title: string
  description: string
  /** The scope a credential needs for this tool. */
  scope: McpScope
  /** True for tools that only read. */
  readOnly: boolean
  input: Shape
  run(call: ToolCall, args: z.infer<z.ZodObject<Shape>>): Promise<ToolAnswer>
}

/** Keeps the input type of a tool's `run` tied to its `input` shape. */
export function defineTool<Shape extends z.ZodRawShape>(tool: McpTool<Shape>): McpTool<Shape> {
  return tool
}

/** A tool error with a message for the model (not a protocol error, not a 5xx). */
export class ToolError extends Error {
  constructor(
    message: string,
    public code: string
  ) {
    super(message)
  }
}

/** `user_id` of every tool. */
export const userIdInput = z
  .string()
  .regex(USER_ID_PATTERN)
  .optional()
  .describe(
    "HRVault user id (the {user_id} of the REST API). Leave it out with a personal API key or an OAuth connection: it then means the user the credential belongs to. Required with a service key."
  )

/** `days`: calendar days ending today (in the server's time zone), as the REST route's `?days=`. */
export function daysInput(defaultDays: number, maxDays: number) {
  return z
    .number()
    .int()
    .min(1)
    .max(maxDays)
    .optional()
    .describe(`Calendar days back from today, today included: 1–${maxDays}, default ${defaultDays}.`)
}

/** A real calendar date YYYY-MM-DD (2026-02-30 is refused). */
export function dateInput(description: string) {
  return z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine(isRealCalendarDate, 'must be a real calendar date YYYY-MM-DD')
    .optional()
    .describe(description)
}
