/**
 * The application root and the module importer every entrypoint hands to
 * the Ignitor: relative paths resolve against the root, the rest as packages.
 */
export const APP_ROOT = new URL('../', import.meta.url)

export const IMPORTER = (filePath: string) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) {
    return import(new URL(filePath, APP_ROOT).href)
  }
  return import(filePath)
}
