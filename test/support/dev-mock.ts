/**
 * `npm run dev:mock`: the test LLM server on a fixed port, for watching a whole run without a
 * key. Point the app's base URL at the printed address; any key works; models "sim-target" and
 * "sim-optimizer". `npm run dev:mock -- --dataset` also writes the rule world's dataset.
 */
import { writeFileSync } from 'node:fs';
import { startLlmServer } from './llm-server';
import { makeWorldItems } from './rule-world';

export async function main(argv: string[]): Promise<number | void> {
  const port = Number(process.env.PORT ?? 8787);
  const latencyMs = Number(process.env.LATENCY_MS ?? 150);
  if (argv.includes('--dataset')) {
    writeFileSync('rule-world-dataset.json', JSON.stringify(makeWorldItems(120), null, 2));
    console.log('Wrote rule-world-dataset.json (120 specimen-code tasks).');
  }
  const harmfulRate = Number(process.env.HARMFUL_RATE ?? 0.25);
  // A provider's batch turnaround (minutes to hours) is stood in for by this delay.
  const batchDelayMs = Number(process.env.BATCH_DELAY_MS ?? 2000);
  const srv = await startLlmServer({ latencyMs, port, harmfulRate, batchDelayMs });
  console.log(`Skillwright test LLM server: ${srv.url}`);
  console.log('  models: sim-target (target), sim-optimizer (optimizer); any API key is accepted.');
  console.log(`  latency ${latencyMs} ms per call (LATENCY_MS), port ${srv.port} (PORT). Ctrl+C to stop.`);
  console.log(`  batches (/files, /batches: OpenAI and OpenRouter shapes) finish after ${batchDelayMs} ms (BATCH_DELAY_MS).`);
  await new Promise(() => {});
}
