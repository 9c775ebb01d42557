import { HttpContext } from '@adonisjs/core/http'
import { BaseSerializer } from '@adonisjs/core/transformers'
import type { ApplicationService } from '@adonisjs/core/types'
import { ResponseCache } from '#services/response_cache'

/**
 * Serializer for every JSON surface. No `data` wrapper: the spec wants bare
 * arrays and objects.
 */
class ApiSerializer extends BaseSerializer<{ PaginationMetaData: Record<string, unknown> }> {
  wrap = undefined

  definePaginationMetaData(metaData: unknown) {
    return (metaData ?? {}) as Record<string, unknown>
  }
}

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    serialize: ApiSerializer['serialize']
  }
}

export default class AppProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    const serializer = new ApiSerializer()
    // A getter (not a macro) so `{ serialize }` can be destructured in actions.
    HttpContext.getter('serialize', function (this: HttpContext) {
      return (values: any): any => serializer.serialize(values, this.containerResolver)
    })
    // One read cache per process (its bound is per process).
    this.app.container.singleton(ResponseCache, async () => {
      const { default: env } = await import('#start/env')
      return new ResponseCache(env.get('RESPONSE_CACHE_MB', 32) * 1024 * 1024)
    })
  }

  /** Every process (web, worker, console) records jobs that fail for good into `failed_jobs`. */
  async boot() {
    const { FailedJobRecorder } = await import('#services/ops/failed_job_recorder')
    FailedJobRecorder.subscribe()
  }
}
