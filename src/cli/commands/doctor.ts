/**
 * `skillwright doctor --config F [--write] [--json]`: the page's Test connection from a terminal
 * (issue #44). Each role's model is asked what it accepts — the wire, temperature, the output
 * limit's parameter, each reasoning effort, tools beside each effort, parallel_tool_calls,
 * structured output — and the findings are said; `--write` keeps them in the config, under each
 * role's "capabilities", where train, resume and eval build their requests from them. Each model
 * target in "confirm" is probed as the target is; an agent CLI there is named and not probed.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeCapabilities } from '../../core/config/capabilities';
import { checkConfirming, checkConnections, type RoleCheck } from '../../service/connection-check';
import { ConfigError, parseCliConfig } from '../config';
import { runnerDeps } from '../host';
import { checkGateTargets } from '../../service/gate-target-check';
import { EXIT, readText, type CliArgs, type CliIo } from '../io';

/** What a check says, a line each: the latency and the findings, or what is wrong. */
function said(c: RoleCheck & { confirm?: number }): string[] {
  const who = `${c.confirm === undefined ? c.role : `confirm[${c.confirm}]`} ${c.model}`;
  if (!c.ok) return [`${who}: failed — ${c.error?.message ?? 'unknown error'}`];
  const lines = [`${who}: ${c.latencyMs} ms`];
  for (const line of c.capabilities ? describeCapabilities(c.capabilities) : []) lines.push(`  ${line}`);
  if (c.structuredOutput?.schemaIgnored)
    lines.push('  a JSON schema is accepted but not kept to: replies are read from text');
  if (c.context) lines.push(`  ${c.context.fix}`);
  return lines;
}

/** The config's text with each checked role's "capabilities" set; every other key as it was. */
function withCapabilities(text: string, checks: readonly (RoleCheck & { confirm?: number })[]): string {
  const raw = JSON.parse(text) as Record<string, Record<string, unknown>>;
  for (const c of checks) {
    // A confirming target's findings go with its entry in "confirm", by its place there.
    const entry =
      c.confirm === undefined ? raw[c.role] : (raw.confirm as unknown as Record<string, unknown>[])[c.confirm];
    if (c.ok && c.capabilities && entry) entry.capabilities = c.capabilities;
  }
  return `${JSON.stringify(raw, null, 2)}\n`;
}

export async function doctor(args: CliArgs, io: CliIo): Promise<number> {
  if (!args.config) throw new ConfigError('--config is required.');
  const path = resolve(args.config);
  const text = readText(path, 'config file');
  const { config, warnings } = parseCliConfig(text, args.config);
  warnings.forEach((w) => io.err(`warning: ${w}`));
  // An agent CLI is no endpoint to probe (issue #42): it signs in its own way, and its first run tells.
  for (const role of ['target', 'optimizer'] as const) {
    const e = config.endpoints[role];
    if (e.agentCommand)
      io.err(
        `${role} ${e.model}: an agent CLI, not probed here — it signs in its own way; its first run says if it cannot`,
      );
  }
  for (const [i, e] of (config.endpoints.confirm ?? []).entries())
    if (e.agentCommand)
      io.err(
        `confirm[${i}] ${e.model}: an agent CLI, not probed here — it signs in its own way; its first run says if it cannot`,
      );
  const deps = runnerDeps(io);
  // The confirming model targets are probed as the target is (issue #42 item 5): a wrong key or model shows now, not after training.
  const checks = [
    ...(await checkConnections(deps, config.endpoints)),
    ...(await checkConfirming(deps, config.endpoints)),
  ];
  for (const c of checks) said(c).forEach((line) => io.err(line));
  // The other targets that gate every candidate (issue #42 item 5): probed as the target is.
  const gating = await checkGateTargets(runnerDeps(io), config.endpoints);
  for (const g of gating) {
    const lines = g.check ? said(g.check) : [`target ${g.model}: an agent CLI, not probed here`];
    lines.forEach((line, k) => io.err(k ? line : line.replace(/^target /, `${g.name} `)));
  }
  if (args.write) {
    writeFileSync(path, withCapabilities(text, checks));
    io.err(`Kept in ${args.config}: each role's "capabilities" (run doctor again when a model or endpoint changes).`);
  } else if (checks.some((c) => c.capabilities))
    io.err(
      `To keep them with the config (requests are then built from them): skillwright doctor --config ${args.config} --write`,
    );
  if (args.json) io.out(JSON.stringify(checks));
  const ok = checks.every((c) => c.ok) && gating.every((g) => g.check?.ok ?? true);
  return ok ? EXIT.lift : EXIT.config;
}
