import { usePage } from '@inertiajs/vue3'
import type { Data } from '@generated/data'
import { label } from '~/lib/format'

/**
 * Names of data types as the server's catalogue spells them (shared prop `dataTypes`), so a
 * page never keeps its own list of keys: `typeLabel('recharge')` → "Nightly Recharge".
 */
export function useTypeLabel() {
  const page = usePage<Data.SharedProps>()
  return (key: string): string => (page.props.dataTypes as Record<string, string> | undefined)?.[key] ?? label(key)
}
