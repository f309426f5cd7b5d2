// Rewrites event streams passing through the self-test proxy: parses what the reference sends
// (LF line ends, one data line per event) into blocks, lets a rule change them, and encodes them
// again with the generators' encoder, in any style the SSE format allows.
import { encodeText, PLAIN_STYLE, type EncodingStyle } from '../../generators/sse/encoding.ts';
import type { SseBlock } from '../../generators/sse/stream-model.ts';
import type { ProxiedAnswer, ProxiedRequest } from './proxy.ts';

export function isEventStream(answer: ProxiedAnswer): boolean {
  return (answer.headers['content-type'] ?? '').startsWith('text/event-stream');
}

/** The blocks of a stream written with LF line ends and blank lines between events. */
export function parseBlocks(text: string): SseBlock[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const out: SseBlock = {};
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        if (name === 'event') out.event = value;
        else if (name === 'data') out.data = out.data === undefined ? value : `${out.data}\n${value}`;
        else if (name === 'id') out.id = value;
      }
      return out;
    });
}

/** The stream_mode a run request asked for. */
export function streamModeOf(request: ProxiedRequest): unknown {
  try {
    return (JSON.parse(request.body.toString('utf8')) as { stream_mode?: unknown }).stream_mode;
  } catch {
    return undefined;
  }
}

/** An event-stream answer with its blocks changed by `edit` and encoded in `style`. */
export function rewriteStream(answer: ProxiedAnswer, edit: (blocks: SseBlock[]) => SseBlock[], style: EncodingStyle = PLAIN_STYLE): ProxiedAnswer {
  if (!isEventStream(answer)) return answer;
  const blocks = edit(parseBlocks(answer.body.toString('utf8')));
  return { ...answer, body: Buffer.from(encodeText({ blocks, terminated: true }, style), 'utf8') };
}
