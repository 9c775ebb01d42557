/** The target of a `Link: <…>; rel="next"` header (RFC 8288), or null when there is no next page. */
export function nextLink(header: string | undefined): string | null {
  const match = header?.match(/^<([^>]+)>;\s*rel="next"$/)
  return match ? match[1] : null
}
