// Serves the pinned LangGraph JS agent server with the echo and fail fixture graphs until Ctrl-C,
// for certifying it by hand and as the peer of `npm run bench` (docs/performance.md):
//   npx tsx test/langgraph-js/serve.ts [--port 2024]
// It is installed first when missing (scripts/install-langgraph-server.sh).
import { parseArgs } from 'node:util';
import { startLangGraphServer } from './langgraph-server.ts';

const { values } = parseArgs({ options: { port: { type: 'string', default: '2024' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`--port: expected a port number, found ${JSON.stringify(values.port)}.`);
  process.exit(2);
}
const server = await startLangGraphServer({ port });
console.log(`LangGraph JS agent server (echo, fail) at ${server.url}; Ctrl-C stops it.`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
