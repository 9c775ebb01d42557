import { ref } from 'vue'
import { api, HttpError } from '~/lib/http'

/** A JSON resource loaded from the dashboard API, with loading and error state. */
export function useResource<T>(load: () => string | null) {
  const data = ref<T | null>(null)
  const error = ref<string | null>(null)
  const loading = ref(false)
  async function refresh() {
    const url = load()
    if (!url) return
    loading.value = true
    error.value = null
    try {
      data.value = await api<T>('GET', url)
    } catch (e) {
      error.value = e instanceof HttpError ? `${e.status}: ${e.message}` : 'The request failed.'
    } finally {
      loading.value = false
    }
  }
  return { data, error, loading, refresh }
}

/** Runs a mutation and reports its outcome as a message. */
export function useAction() {
  const busy = ref<string | null>(null)
  const message = ref<{ tone: 'success' | 'error'; text: string } | null>(null)
  async function run<T>(key: string, method: string, url: string, body?: unknown, success?: (result: T) => string) {
    busy.value = key
    message.value = null
    try {
      const result = await api<T>(method, url, body)
      message.value = { tone: 'success', text: success ? success(result) : 'Done.' }
      return result
    } catch (e) {
      message.value = { tone: 'error', text: e instanceof HttpError ? `${e.status}: ${e.message}` : 'The request failed.' }
      return null
    } finally {
      busy.value = null
    }
  }
  return { busy, message, run }
}
