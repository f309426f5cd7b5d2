// HEALTHCHECK of the image: healthy when all three listeners of `apc serve` answer over HTTP.
// Plain JavaScript, so that a check starts in milliseconds without the TypeScript loader.
const env = process.env;
const listeners = [
  // The agent server has a health route; the other two prove they listen by answering at all.
  { port: env.APC_REF_AGENT_SERVER_PORT ?? '8123', path: '/ok', ok: (s) => s === 200 },
  { port: env.APC_REF_CONTROL_PLANE_PORT ?? '8100', path: '/', ok: (s) => s < 500 },
  { port: env.APC_REF_TRACING_PORT ?? '8200', path: '/', ok: (s) => s < 500 },
];
try {
  for (const { port, path, ok } of listeners) {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    if (!ok(response.status)) throw new Error(`port ${port}${path} answered ${response.status}`);
  }
} catch (error) {
  console.error(`unhealthy: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
