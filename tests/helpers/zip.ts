import yauzl from 'yauzl'

/** One file of a ZIP archive, decompressed (yauzl checks its CRC-32 and sizes). */
export interface ZipEntry {
  name: string
  bytes: Buffer
  mtime: Date
}

/** Every file of a ZIP held in memory, in archive order; rejects a damaged archive. */
export function readZip(archive: Buffer): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(archive, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a ZIP archive'))
      const entries: ZipEntry[] = []
      zip.on('error', reject)
      zip.on('end', () => resolve(entries))
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error(`cannot open ${entry.fileName}`))
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('error', reject)
          stream.on('end', () => {
            entries.push({ name: entry.fileName, bytes: Buffer.concat(chunks), mtime: entry.getLastModDate() })
            zip.readEntry()
          })
        })
      })
      zip.readEntry()
    })
  })
}

/** The rows of a JSON Lines file. */
export const jsonLines = (bytes: Buffer) =>
  bytes
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
