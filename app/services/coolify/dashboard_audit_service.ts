import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import AuditLog from '#models/audit_log'
import { ClockService } from '#services/clock_service'
import type { DashboardActor } from '#services/coolify/types'

export interface DashboardAuditEntry {
  /** e.g. `coolify.deploy`, `coolify.env.update`, `coolify.reveal`, `coolify.ops.console`. */
  action: string
  /** The resource: an application, database, deployment or service uuid, plus a sub-path. */
  target: string
  outcome: 'success' | 'failure'
  /** Non-secret context (never a value, password or token). */
  details?: Record<string, unknown>
}

/**
 * Writes dashboard actions to `audit_logs`: every Coolify mutation, every secret reveal and
 * every mutating ops-proxy call, with the admin's e-mail as actor. An audit write failure is
 * logged and never hides the outcome of the action itself.
 */
@inject()
export class DashboardAuditService {
  constructor(protected clock: ClockService) {}

  async record(actor: DashboardActor, entry: DashboardAuditEntry) {
    try {
      await AuditLog.create({
        actorType: 'admin',
        actor: actor.email.slice(0, 120),
        action: entry.action.slice(0, 60),
        target: entry.target.slice(0, 255),
        outcome: entry.outcome,
        details: entry.details ? JSON.stringify(entry.details) : null,
        createdAt: this.clock.now(),
      })
    } catch (error) {
      logger.error({ err: error, action: entry.action }, 'could not write the audit log entry')
    }
  }

  /**
   * Runs a mutation and audits it with its outcome; the mutation's result or error is
   * returned or rethrown unchanged.
   */
  async around<T>(actor: DashboardActor, entry: Omit<DashboardAuditEntry, 'outcome'>, run: () => Promise<T>): Promise<T> {
    try {
      const result = await run()
      await this.record(actor, { ...entry, outcome: 'success' })
      return result
    } catch (error) {
      const status = (error as { status?: number }).status
      await this.record(actor, { ...entry, outcome: 'failure', details: { ...entry.details, status: status ?? null } })
      throw error
    }
  }
}
