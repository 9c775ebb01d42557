import { BaseTransformer } from '@adonisjs/core/transformers'
import type { OpsPrincipal } from '#services/ops/ops_tokens'

/** A configured operations token as the admin UI lists it: its name and scopes, never its value. */
export default class TokenTransformer extends BaseTransformer<OpsPrincipal> {
  toObject() {
    return this.pick(this.resource, ['name', 'scopes'])
  }
}
