#!/usr/bin/env node
// A fake agent CLI for the runner's tests (issue #31): it works like a real agent harness — reads
// its skill where agents read skills (AGENTS.md, or a SKILL.md under .agents/skills/), opens the
// references the skill names, answers the task from standard input (or its last argument), and
// writes its transcript — and it follows the rule world's rules (src/core/demo-world.ts): an
// answer is right only when the skill states a rule for every family the question needs.
//
// FAKE_AGENT_MODE picks a failure, for the paths a real agent takes:
//   flaky      the first attempt at each task exits 1 with empty output (a dropped connection)
//   slow-once  the first attempt at each task hangs (the runner's time limit ends it)
//   hang       every attempt hangs
//   logged-out prints Codex's own words for an expired login and exits 1
//   clueless   ignores the skill (so no edit can help it)
//   replay     replays a real CLI's recorded run (issue #42): FAKE_AGENT_REPLAY names a fixture of
//              test/fixtures/agent-streams/ — its standard output, standard error and exit code
// Workspace tasks (issue #42 item 4): every "In FILE, replace `A` with `B`." the skill states is
// applied to FILE when its working folder holds it (only there: no path leaves the folder).
// FAKE_AGENT_LLM_URL: the agent as the optimizer (issue #42 item 3) — its task (an optimizer's
// prompt) goes to that OpenAI-compatible endpoint as the user message under
// the agent's own system prompt, as a harness's model gets it (FAKE_AGENT_LLM_MODEL its model,
// FAKE_AGENT_LLM_KEY its key: the agent's own login), and the model's reply is the answer; a refused
// request is printed in the API's words and exits 1, as the published CLIs do.
// FAKE_AGENT_ORPHAN=1: first start a process that inherits stdout and sleeps a minute (a dev server,
// a watcher), its pid appended to FAKE_AGENT_STATE/orphans.log.
// FAKE_AGENT_STATE: a folder where flaky and slow-once remember the tasks they failed once, and
// where every run appends its task to `runs.log` (the tests count attempts) and the names of its
// environment variables to `env.log`, its arguments to `argv.log`. (The runner passes both variables only when the config's
// `passEnv` names them.)
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { isAbsolute, join } from 'node:path';

const TRANSCRIPT = '.agent/transcript.jsonl';
const mode = process.env.FAKE_AGENT_MODE ?? '';
const state = process.env.FAKE_AGENT_STATE ?? '';

function topicCode(topic) {
  let sum = 0;
  for (const ch of topic) sum += ch.charCodeAt(0);
  return `${topic.slice(0, 3).toUpperCase()}${sum % 10}`;
}
const QUESTION = /What is the (?:combined )?([a-z]+)(?:\/([a-z]+))? code for specimen (\d+)\?/;

function readTask() {
  const last = process.argv[process.argv.length - 1];
  if (process.argv.length > 2 && QUESTION.test(last)) return last;
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

/** The skill file an agent harness would load: AGENTS.md, else the first skill package's SKILL.md. */
function skillPath() {
  if (existsSync('AGENTS.md')) return { file: 'AGENTS.md', dir: '.' };
  const root = '.agents/skills';
  for (const name of existsSync(root) ? readdirSync(root) : []) {
    const file = join(root, name, 'SKILL.md');
    if (existsSync(file)) return { file, dir: join(root, name) };
  }
  return null;
}

const transcript = [];
const log = (entry) => transcript.push(JSON.stringify(entry));

/** The skill's text and every reference it names (read the way progressive disclosure reads them). */
function readSkill() {
  const where = skillPath();
  if (!where) return '';
  let text = readFileSync(where.file, 'utf8');
  for (const ref of new Set(text.match(/references\/[\w.-]+\.md/g) ?? [])) {
    const path = join(where.dir, ref);
    log({ type: 'tool_call', name: 'read_file', arguments: { path: ref } });
    const body = existsSync(path) ? readFileSync(path, 'utf8') : null;
    log({ type: 'tool_result', name: 'read_file', content: body ?? 'no such file', ...(body ? {} : { is_error: true }) });
    if (body) text += `\n${body}`;
  }
  return text;
}

const FIX = /In ([\w./-]+), replace `([^`]+)` with `([^`]*)`\./g;

/** The fixes the skill states, applied to the files of the working folder; how many were. */
function applyFixes(skill) {
  let applied = 0;
  for (const [, file, from, to] of skill.matchAll(FIX)) {
    if (file.split('/').includes('..') || isAbsolute(file) || !existsSync(file)) continue;
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll(from, to));
    applied++;
  }
  return applied;
}

function answer(skill, task) {
  const m = QUESTION.exec(task);
  if (!m) return 'I do not know.';
  const topics = [m[1], ...(m[2] ? [m[2]] : [])];
  const specimen = Number(m[3]);
  if (skill.includes('answer with the single word none') && specimen % 2 === 0) return 'none';
  if (topics.every((t) => skill.includes(`prefix ${topicCode(t)}`)))
    return `${topics.map(topicCode).join('')}-${specimen}`;
  return 'unknown';
}

/** True the first time this task is seen in this state folder (flaky and slow-once fail then). */
function firstTime(task) {
  if (!state) return true;
  mkdirSync(state, { recursive: true });
  const mark = join(state, createHash('sha256').update(`${mode}|${task}`).digest('hex').slice(0, 16));
  if (existsSync(mark)) return false;
  writeFileSync(mark, '');
  return true;
}

/** The agent's model answers the task (an optimizer's prompt): its reply on standard output. */
async function askModel(prompt) {
  const res = await fetch(`${process.env.FAKE_AGENT_LLM_URL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.FAKE_AGENT_LLM_KEY ?? ''}` },
    body: JSON.stringify({
      model: process.env.FAKE_AGENT_LLM_MODEL ?? 'sim-optimizer',
      messages: [
        { role: 'system', content: 'You are a coding agent working in a terminal. Do what the user asks.' },
        { role: 'user', content: prompt },
      ],
    }),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    process.stderr.write(`Error: ${res.status} ${body.error?.message ?? res.statusText}\n`);
    process.exit(1);
  }
  process.stdout.write(`${body.choices?.[0]?.message?.content ?? ''}\n`);
}

const task = readTask();
if (state) {
  mkdirSync(state, { recursive: true });
  appendFileSync(join(state, 'runs.log'), `${JSON.stringify(task.trim())}\n`);
  // The names of the variables it was started with (the runner passes only an allow-listed few).
  appendFileSync(join(state, 'env.log'), `${JSON.stringify(Object.keys(process.env).sort())}\n`);
  appendFileSync(join(state, 'argv.log'), `${JSON.stringify(process.argv.slice(2))}\n`);
}
if (process.env.FAKE_AGENT_ORPHAN === '1') {
  const orphan = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'inherit' });
  if (state) appendFileSync(join(state, 'orphans.log'), `${orphan.pid}\n`);
  orphan.unref();
}
if (mode === 'replay') {
  const dir = new URL('../fixtures/agent-streams/', import.meta.url).pathname;
  const name = process.env.FAKE_AGENT_REPLAY ?? '';
  const run = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')).find((r) => r.name === name);
  if (!run) throw new Error(`no recorded run ${name}`);
  if (run.stderr) process.stderr.write(readFileSync(join(dir, run.stderr), 'utf8'));
  if (run.stdout) process.stdout.write(readFileSync(join(dir, run.stdout), 'utf8'));
  process.exitCode = run.exit;
} else if (mode === 'logged-out') {
  process.stderr.write('Error: Your access token could not be refreshed. Please log in again (codex login).\n');
  process.exit(1);
} else if (mode === 'hang' || (mode === 'slow-once' && firstTime(task))) {
  setInterval(() => undefined, 1000); // a stuck agent: only the runner's time limit ends it
} else if (mode === 'flaky' && firstTime(task)) {
  process.exit(1);
} else if (process.env.FAKE_AGENT_LLM_URL) {
  await askModel(task);
} else {
  log({ role: 'assistant', content: 'Reading the task and the skill.' });
  const skill = mode === 'clueless' ? '' : readSkill();
  const fixes = QUESTION.test(task) ? 0 : applyFixes(skill);
  const reply = fixes ? `Applied ${fixes} fix(es).` : answer(skill, task);
  mkdirSync('.agent', { recursive: true });
  writeFileSync(TRANSCRIPT, `${transcript.join('\n')}\n`);
  process.stdout.write(`${reply}\n`);
}
