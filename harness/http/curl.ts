// Renders an exchange as a ready-to-run curl line. The API key becomes a shell variable
// reference, so a pasted line works once `APC_API_KEY` is exported and never shows the key.
import type { Redactor } from '../redact.ts';
import type { Exchange } from './exchange.ts';

const KEY_HEADERS = new Set(['x-api-key', 'authorization']);
const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection']);

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** No redaction: where the text goes, its run's redactor replaces the secrets (a failure record, a printed line). */
const AS_IS = { text: (text: string) => text };

export function toCurl(exchange: Exchange, redactor: Pick<Redactor, 'text'> = AS_IS): string {
  const { request } = exchange;
  const parts = ['curl', '-sS', '-X', request.method, quote(redactor.text(request.url))];
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (SKIPPED_HEADERS.has(lower)) continue;
    if (KEY_HEADERS.has(lower)) {
      const variable = lower === 'authorization' ? 'Bearer $APC_BEARER_TOKEN' : '$APC_API_KEY';
      parts.push('-H', `"${name}: ${variable}"`);
    } else {
      parts.push('-H', quote(`${name}: ${redactor.text(value)}`));
    }
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(redactor.text(request.body)));
  return parts.join(' ');
}

const MAX_BODY_SHOWN = 2_000;

/** What came back, for a failure message: status line and (shortened) body, redacted when a redactor is given. */
export function describeResponse(exchange: Exchange, redactor: Pick<Redactor, 'text'> = AS_IS): string {
  if (!exchange.response) return `no response: ${exchange.error ?? 'unknown error'}`;
  const { status, text } = exchange.response;
  const body = text.length > MAX_BODY_SHOWN ? `${text.slice(0, MAX_BODY_SHOWN)}… (${text.length} bytes)` : text;
  return redactor.text(`HTTP ${status}${body ? ` ${body}` : ''}`);
}
