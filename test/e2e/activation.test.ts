// The activation track on a noisy agent, in Chromium (issue #40): the Runs screen's Activation card
// says each rewrite's verdict in the run's comparator's terms, and what an undecided verdict bought.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { TRIGGER_START_DESCRIPTION, triggerWorldQueries } from '../support/trigger-world';
import { knob, setKnobs, trainToCompletion } from './support/app';
import { appSession, chooseWorld, KNOBS, skip } from './support/session';
import { shootThemes } from './support/shots';
import { pct } from '../../src/ui/runs/run-format';

// Seed 1: the first epoch's rewrite gains on validation, its verdict undecided on the run's three samples.
const SEED = '1';

describe.skipIf(Boolean(skip))('the activation track on a noisy agent, in Chromium', () => {
  let srv: LlmTestServer;
  const app = appSession(() => [srv], { quiet: true });
  let page: Page;
  beforeAll(async () => {
    page = app.page;
    // The engine test's noisy agent (test/engine/activation.test.ts): it misses and guesses a trigger now and then.
    srv = await startLlmServer({ describerSlip: 0.25, noiseSeed: 3, targetNoise: { miss: 0.1, guess: 0.05 } });
    await chooseWorld(page, srv);
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('shows, per epoch, the verdict as a chance of "better" and what an undecided verdict bought', async () => {
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Skill name').fill('specimen-codes');
    await page.getByLabel('Skill description').fill(TRIGGER_START_DESCRIPTION);
    const queries = JSON.stringify(triggerWorldQueries());
    await page
      .getByLabel('Open trigger queries')
      .setInputFiles({ name: 'triggers.json', mimeType: 'application/json', buffer: Buffer.from(queries) });
    await page.getByText(/40 trigger queries from triggers\.json/).waitFor();
    await page.getByRole('link', { name: 'Train' }).click();
    // The reference's edit budget (4), as the activation bench trains the body with: seed 1 was found at it.
    await setKnobs(page, { ...KNOBS, Epochs: '3', Seed: SEED, 'Edit budget': '4' });
    await (await knob(page, 'Train the description (activation track)')).check();
    const run = await trainToCompletion(page, 240_000);
    type Evidence = {
      samples: number;
      calls: number;
      before: { pBetter: number; pWorse: number };
      after: { pBetter: number };
    };
    type Epoch = { epoch: number; action: string; trainBefore: number; valCurrent?: number; valCandidate?: number };
    const epochs = run.state!.activation!.epochs as (Epoch & {
      evidence?: Evidence;
      earlier?: { evidence?: Evidence }[];
    })[];
    const bought = epochs
      .flatMap((e) => [...(e.earlier ?? []).map((r) => r.evidence), e.evidence])
      .filter((e) => e !== undefined);
    await page.getByRole('link', { name: 'Runs' }).click();
    const card = page.locator('section.card', {
      has: page.getByRole('heading', { name: 'Activation track — the description' }),
    });
    await card.waitFor();
    const text = await card.innerText();
    // No verdict is a mean comparison's: a rewrite is kept or rejected on its chance of being better (0.7).
    expect(text).not.toContain('rejected at the gate');
    // Seed 1: the first epoch's rewrite was undecided on the run's samples, bought more and was kept.
    const first = epochs[0];
    expect(first).toMatchObject({ action: 'accept', evidence: { samples: 6 } });
    expect(text).toContain(
      `Epoch 1: train queries ${pct(first.trainBefore)} right · rewrite kept: better with probability 0.7 or more ` +
        `(validation ${pct(first.valCurrent)} → ${pct(first.valCandidate)})`,
    );
    expect(text).toMatch(
      /rewrite (kept: better with probability 0\.7 or more|rejected: the chance it is better stayed below 0\.7)/,
    );
    // The run's state records what each undecided verdict bought; the card says it in the main gate's words.
    expect(bought.length).toBeGreaterThan(0);
    const lines = await card.getByLabel('Evidence bought').allInnerTexts();
    expect(lines).toEqual(
      bought.map(
        (e) =>
          `Undecided on the run’s samples (better with probability ${e.before.pBetter.toFixed(3)}, worse ${e.before.pWorse.toFixed(3)}): ` +
          `instead of saying no, the gate asked again where a change was plausible, up to ${e.samples} answers per item ` +
          `(${e.calls} calls) → better with probability ${e.after.pBetter.toFixed(3)}.`,
      ),
    );
    await shootThemes(page, card.getByLabel('Evidence bought').first(), 'runs-activation-evidence');
  }, 300_000);
});
