import { FailedJobSchema } from '#database/schema'

/** A queue job that exhausted its retries (listed and retried by the operations API). */
export default class FailedJob extends FailedJobSchema {
  static table = 'failed_jobs'
}
