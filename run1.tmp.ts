import { startLlmServer } from './test/support/llm-server';
import { trainOnce } from './test/support/harness';
export async function main() {
  const srv = await startLlmServer();
  for (let i = 0; i < 2; i++) await trainOnce({ url: srv.url });
  const n0 = srv.log.length; const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < 6; i++) await trainOnce({ url: srv.url, runId: `r${i}` });
  const c = process.cpuUsage(c0); const calls = srv.log.length - n0;
  console.log(`${calls} calls, wall ${((performance.now() - t0) / calls).toFixed(3)} ms/call, cpu ${((c.user + c.system) / 1000 / calls).toFixed(3)} ms/call`);
  await srv.close();
  return 0;
}
