import { readFile } from 'node:fs/promises'
import { validateXML, memoryPages } from 'xmllint-wasm'

/** The published schemas vendored under tests/fixtures/xsd (see its README for where they came from). */
const SCHEMAS = {
  gpx: new URL('../fixtures/xsd/gpx-1.1.xsd', import.meta.url),
  tcx: new URL('../fixtures/xsd/TrainingCenterDatabasev2.xsd', import.meta.url),
} as const

/**
 * Validates a document against the GPX 1.1 or TCX v2 XSD with libxml2's xmllint compiled to
 * WebAssembly (no system package needed). Returns xmllint's error messages, [] when valid.
 */
export async function xsdErrors(xml: string, schema: keyof typeof SCHEMAS): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: `document.${schema}`, contents: xml }],
    schema: [await readFile(SCHEMAS[schema], 'utf8')],
    maxMemoryPages: 512 * memoryPages.MiB,
  })
  return result.valid ? [] : result.errors.map((error) => error.rawMessage)
}
