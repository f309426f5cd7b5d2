// The agent-client consumer: a typical application of the agent server. It stands for a
// consumer team's own code, so it uses plain fetch and an SSE parser, nothing of the harness.
import { createParser } from 'eventsource-parser';

export interface Assistant {
  assistant_id: string;
  graph_id: string;
  name: string;
  context: Record<string, unknown>;
}

export interface RunResult {
  runId: string;
  /** Each updates event: node name → that node's update. */
  updates: Record<string, Record<string, unknown>>[];
}

export class AgentClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: { 'X-Api-Key': this.apiKey, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  createAssistant(graphId: string, name: string, context: Record<string, unknown>, metadata: Record<string, unknown>): Promise<Assistant> {
    return this.call('POST', '/assistants', { graph_id: graphId, name, context, metadata });
  }

  updateAssistant(assistantId: string, context: Record<string, unknown>): Promise<Assistant> {
    return this.call('PATCH', `/assistants/${assistantId}`, { context });
  }

  setLatestVersion(assistantId: string, version: number): Promise<Assistant> {
    return this.call('POST', `/assistants/${assistantId}/latest`, { version });
  }

  searchAssistants(metadata: Record<string, unknown>, limit: number): Promise<Assistant[]> {
    return this.call('POST', '/assistants/search', { metadata, limit });
  }

  async createThread(): Promise<string> {
    return (await this.call<{ thread_id: string }>('POST', '/threads', {})).thread_id;
  }

  /** Streams a run on a thread and collects the run id and the node updates. */
  async streamRun(threadId: string, assistantId: string, message: string): Promise<RunResult> {
    const response = await fetch(`${this.baseUrl}/threads/${threadId}/runs/stream`, {
      method: 'POST',
      headers: { 'X-Api-Key': this.apiKey, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({ assistant_id: assistantId, input: { messages: [{ type: 'human', content: message }] }, stream_mode: 'updates' }),
    });
    if (!response.ok || !response.body) throw new Error(`run stream answered ${response.status}`);
    const result: RunResult = { runId: '', updates: [] };
    const parser = createParser({
      onEvent(event) {
        const data = JSON.parse(event.data) as Record<string, unknown>;
        if (event.event === 'metadata') result.runId = String(data.run_id);
        if (event.event === 'updates') result.updates.push(data as RunResult['updates'][number]);
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of response.body) parser.feed(decoder.decode(chunk, { stream: true }));
    return result;
  }
}
