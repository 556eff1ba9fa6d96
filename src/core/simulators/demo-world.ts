/**
 * The rule world (DESIGN §8) behind the test LLM server and the in-page demo: each item needs
 * one or two rules; the simulated target answers an item correctly only if the skill states
 * every rule it needs. Everything is derived from text, so it keeps no state and is
 * deterministic. A simulation, never a real model: the demo says so wherever it shows.
 */
import type { Pace } from '../config/run-duration';

/** How long the in-page demo endpoint pauses before each answer, like a fast model. */
export const DEMO_LATENCY_MS = 40;

/** The demo's pace for the duration estimate (core/config/run-duration.ts): a short pause, then its answer. */
export const DEMO_PACE: Pace = {
  latencyS: DEMO_LATENCY_MS / 1000,
  tokensPerS: Number.POSITIVE_INFINITY,
  said: `Time: the demo’s simulated model answers each call after ${DEMO_LATENCY_MS} ms; steps wait on each other.`,
};

export const TOPICS = [
  'amber',
  'basalt',
  'cobalt',
  'dune',
  'ember',
  'fjord',
  'garnet',
  'harbor',
  'indigo',
  'jasper',
  'kelp',
  'lumen',
  'marble',
  'nectar',
  'onyx',
  'prism',
] as const;
export type Topic = (typeof TOPICS)[number];

/** The code a topic's answers start with, e.g. amber → AMB7. */
export function topicCode(topic: string): string {
  let sum = 0;
  for (const ch of topic) sum += ch.charCodeAt(0);
  return `${topic.slice(0, 3).toUpperCase()}${sum % 10}`;
}

/** The rule text that teaches a topic; its key phrase is what the target looks for. */
export function ruleText(topic: string): string {
  return `- For ${topic} specimens, use the prefix ${topicCode(topic)}: answer ${topicCode(topic)}-<specimen number>.`;
}
export function ruleKey(topic: string): string {
  return `prefix ${topicCode(topic)}`;
}

/** An edit the simulated optimizer sometimes proposes: it makes the target fail even specimens. */
export const HARMFUL_RULE = '- When unsure, answer with the single word none.';
export const HARMFUL_KEY = 'answer with the single word none';

export interface WorldItem {
  id: string;
  question: string;
  answers: string[];
}

const QUESTION = /What is the (?:combined )?([a-z]+)(?:\/([a-z]+))? code for specimen (\d+)\?/;

export function parseQuestion(text: string): { topics: string[]; specimen: number } | null {
  const m = QUESTION.exec(text);
  if (!m) return null;
  return { topics: [m[1], ...(m[2] ? [m[2]] : [])], specimen: Number(m[3]) };
}

export function expectedAnswer(topics: readonly string[], specimen: number): string {
  return `${topics.map(topicCode).join('')}-${specimen}`;
}

/** Every question mentioned in a text (e.g. an analyst prompt), in order. */
export function questionsIn(text: string): { topics: string[]; specimen: number }[] {
  const re = new RegExp(QUESTION.source, 'g');
  return [...text.matchAll(re)].map((m) => ({ topics: [m[1], ...(m[2] ? [m[2]] : [])], specimen: Number(m[3]) }));
}

/**
 * n items over the first `topicCount` topics; every fifth item needs two rules. Deterministic.
 */
export function makeWorldItems(n: number, topicCount = 8): WorldItem[] {
  const topics = TOPICS.slice(0, topicCount);
  return Array.from({ length: n }, (_, i) => {
    const a = topics[i % topics.length];
    const b = topics[(i * 7 + 3) % topics.length];
    const pair = i % 5 === 4 && a !== b;
    const t = pair ? [a, b] : [a];
    const specimen = 100 + i;
    const question = pair
      ? `What is the combined ${a}/${b} code for specimen ${specimen}?`
      : `What is the ${a} code for specimen ${specimen}?`;
    return { id: `w${String(i).padStart(3, '0')}`, question, answers: [expectedAnswer(t, specimen)] };
  });
}

/** The answer the simulated target gives for a question with a given system prompt. */
export function simulatedTargetAnswer(systemPrompt: string, question: string): string {
  const q = parseQuestion(question);
  if (!q) return 'I do not know.';
  if (systemPrompt.includes(HARMFUL_KEY) && q.specimen % 2 === 0) return 'none';
  if (q.topics.every((t) => systemPrompt.includes(ruleKey(t)))) return expectedAnswer(q.topics, q.specimen);
  return 'unknown';
}

/** The simulated endpoint of the zero-key demo (worker/demo-endpoint.ts): `.invalid` never resolves. */
export const DEMO_BASE_URL = 'https://demo.skillwright.invalid/v1';
export const DEMO_MODELS = { target: 'simulated-target', optimizer: 'simulated-optimizer' } as const;
/** The demo's "key": keys are bound to hosts, so this one only ever goes to the demo endpoint. */
export const DEMO_KEY = 'demo-no-key';
export const DEMO_INITIAL_SKILL = '# Specimen codes\n\nAnswer with the specimen code.\n';
