import { logDir } from '#config/paths'
import { LogReader, type LogReadOptions, type LogReadResult } from '#services/ops/log_reader'

/** `GET {ops}/logs[/:file]`: the application's own log files in LOG_DIR. */
export class OpsLogsService {
  protected reader = new LogReader(logDir)

  /** File names, most recently modified first. */
  list(): Promise<string[]> {
    return this.reader.listFiles()
  }

  /** Newest matching entries of a listed file (404 for anything not listed). */
  read(file: string, options: LogReadOptions): Promise<LogReadResult> {
    return this.reader.read(file, options)
  }
}
