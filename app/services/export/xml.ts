import { Readable } from 'node:stream'

/**
 * The few XML helpers the GPX and TCX writers need: escaping of text and attribute values,
 * numbers in `xsd:decimal` form, and a byte stream from a generator of fragments.
 */

/** Characters XML 1.0 does not allow at all (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }
const ATTRIBUTE_ESCAPES: Record<string, string> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
}

/** Character data: `&`, `<`, `>` escaped, characters XML cannot carry dropped. */
export function escapeText(value: string): string {
  return value.replace(INVALID_XML, '').replace(/[&<>]/g, (c) => TEXT_ESCAPES[c])
}

/** An attribute value for double or single quotes; tab and line breaks kept as character references. */
export function escapeAttribute(value: string): string {
  return value.replace(INVALID_XML, '').replace(/[&<>"'\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c])
}

/** `<name>text</name>` with the text escaped; nothing for null. */
export function textElement(name: string, value: string | number | null | undefined): string {
  if (value === null || value === undefined) return ''
  return `<${name}>${typeof value === 'number' ? decimal(value) : escapeText(value)}</${name}>`
}

/**
 * A finite number as `xsd:decimal` (and `xsd:double`) accept it: plain digits, never an exponent
 * (`1e-7` is not a decimal), at most `digits` fraction digits, trailing zeros dropped.
 */
export function decimal(value: number, digits = 8): string {
  if (!Number.isFinite(value)) throw new RangeError(`${value} is not a finite number`)
  const fixed = value.toFixed(digits)
  const trimmed = fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed
  return trimmed === '-0' ? '0' : trimmed
}

/**
 * A byte stream of the fragments a (sync) generator yields, joined into chunks of about
 * `chunkBytes`, so a long track is written piece by piece, never as one string.
 */
export function xmlStream(fragments: Iterable<string>, chunkBytes = 16_384): Readable {
  function* chunks(): Generator<Buffer> {
    let pending = ''
    for (const fragment of fragments) {
      pending += fragment
      if (pending.length >= chunkBytes) {
        yield Buffer.from(pending, 'utf8')
        pending = ''
      }
    }
    if (pending !== '') yield Buffer.from(pending, 'utf8')
  }
  return Readable.from(chunks(), { objectMode: false })
}
