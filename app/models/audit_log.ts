import { AuditLogSchema } from '#database/schema'

/** An audited action: who (actor), what (action, target), outcome and details (JSON). */
export default class AuditLog extends AuditLogSchema {
  static table = 'audit_logs'
}
