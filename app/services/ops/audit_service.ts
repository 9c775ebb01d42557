import AuditLog from '#models/audit_log'

/** One audited operation. `details` is stored as JSON text. */
export interface OpsAuditEntry {
  /** Audit name of the operations token (never the token itself). */
  actor: string
  /** `queue.retry`, `queue.retry_all`, `console.run`. */
  action: string
  target?: string | null
  /** `success`, `failure`, `not_found`, `refused`, `timeout`. */
  outcome: string
  details?: Record<string, unknown>
}

/** Writes operations API actions into `audit_logs` (DESIGN §5: every retry and console run). */
export class OpsAuditService {
  /** Persists one entry with the current time; returns the stored row. */
  async record(entry: OpsAuditEntry) {
    return AuditLog.create({
      actorType: 'ops_token',
      actor: entry.actor.slice(0, 120),
      action: entry.action,
      target: entry.target === undefined || entry.target === null ? null : entry.target.slice(0, 255),
      outcome: entry.outcome,
      details: entry.details === undefined ? null : JSON.stringify(entry.details),
    })
  }
}
