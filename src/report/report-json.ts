// The report-json output: the whole run as one JSON file, secrets redacted.
import { writeFile } from 'node:fs/promises';
import { redactValuesIn, type Secrets } from '../security/run-secrets.js';
import { redactSecrets } from '../security/sanitize.js';

export async function writeReportJson(file: string, data: unknown, secrets: Secrets): Promise<void> {
  // Known values from each string first: JSON escapes some characters a value may hold.
  const text = redactSecrets(JSON.stringify(redactValuesIn(data, secrets), null, 2), secrets);
  await writeFile(file, `${text}\n`, { mode: 0o600 });
}
