// The report-json output: the whole run as one JSON file, secrets redacted.
import { writeFile } from 'node:fs/promises';
import { redactSecrets } from '../security/sanitize.js';

export async function writeReportJson(file: string, data: unknown, secrets: string[]): Promise<void> {
  const text = redactSecrets(JSON.stringify(data, null, 2), secrets);
  await writeFile(file, `${text}\n`, { mode: 0o600 });
}
