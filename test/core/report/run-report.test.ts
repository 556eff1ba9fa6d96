// The HTML report of a run (issue #11): self-contained, scriptless, every run text escaped.
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderRunReport, type ReportData } from '../../../src/core/report/run-report';
import { learningCurve, type CurveMark } from '../../../src/core/report/learning-curve';

const data = (p: Partial<ReportData> = {}): ReportData => ({
  name: 'Run <one>',
  status: 'completed',
  createdAt: '2026-11-23 01:02 UTC',
  datasetName: 'world.json',
  targetModel: 'sim-target',
  optimizerModel: 'sim-optimizer',
  config: { epochs: 2, batchSize: 20, editBudget: 4, gateMetric: 'hard', gateRule: 'no_regression' },
  baseline: 0.1,
  steps: [
    { step: 1, epoch: 1, action: 'accept_new_best', candidate: 0.5, current: 0.5, best: 0.5 },
    { step: 2, epoch: 1, action: 'reject', candidate: 0.4, current: 0.5, best: 0.5 },
  ],
  gates: [
    { step: 1, action: 'accept_new_best', candidate: 0.5, current: 0.1, fixed: ['v1', 'v2'], broken: [], edits: [{ op: 'append', content: '- Use <b>bold</b> & "quotes"' }] },
    { step: 2, action: 'reject', candidate: 0.4, current: 0.5, fixed: [], broken: ['v7'], edits: [{ op: 'delete', target: '- old rule' }] },
  ],
  tests: [
    { skill: 'none', hard: 0, soft: 0.1, n: 40 },
    { skill: 'initial', hard: 0.1, soft: 0.2, n: 40 },
    { skill: 'best', hard: 0.6, soft: 0.7, n: 40 },
  ],
  usage: { rollout: { calls: 40, promptTokens: 1000, completionTokens: 200, costUsd: 0.01 }, rank: { calls: 2, promptTokens: 500, completionTokens: 50, costUsd: 0.02 } },
  totalCostUsd: 0.03,
  bestSkill: '# Skill\n<script>alert(1)</script>\n',
  ...p,
});

describe('HTML run report', () => {
  it('shows pass^k beside pass^1 and the flip rate when the test tried each item several times (issue #43)', () => {
    const passK = (passAt1: number, passAtK: number, flipRate: number) => ({ k: 3, passAt1, passAtK, flipRate, items: 40, short: 0 });
    const html = renderRunReport(
      data({
        tests: [
          { skill: 'initial', hard: 0.1, soft: 0.2, n: 40, passK: passK(0.125, 0.025, 0.2) },
          { skill: 'best', hard: 0.6, soft: 0.7, n: 40, passK: passK(0.5917, 0.35, 0.475) },
        ],
      }),
    );
    expect(html).toContain('<th>Test accuracy</th><th>pass^1</th><th>pass^3</th><th>Items flipped</th>');
    expect(html).toContain('<td>Best skill (exported)</td><td>60.0%</td><td>59.2%</td><td>35.0%</td><td>47.5%</td><td>70.0%</td><td>40</td>');
    expect(html).toContain('Each test item was tried 3 times with each skill.');
    // One try per item: no pass^k to show.
    expect(renderRunReport(data())).not.toContain('pass^');
  });

  it('has no script and no outside resource, and escapes every text from the run', () => {
    const html = renderRunReport(data());
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)=/i);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<title>Run &lt;one&gt; — Skillwright run report</title>');
    expect(html).toContain('- Use &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quotes&quot;');
    expect(escapeHtml(`<a href="x">'&`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;');
  });

  it('renders no markup from numbers a crafted bundle replaced with text (issue #20 item 12)', () => {
    const evil = '<meta http-equiv="refresh" content="0;url=https://evil.example"><form action="https://evil.example">';
    const bad = evil as unknown as number;
    const html = renderRunReport(
      data({
        config: { epochs: bad, batchSize: bad, editBudget: bad, gateMetric: evil, gateRule: evil, updateMode: evil },
        steps: [{ step: bad, epoch: 1, action: 'accept', candidate: 0.5, current: 0.5, best: 0.5 }],
        gates: [{ step: bad, action: 'accept', candidate: bad, current: bad, fixed: [], broken: [], edits: [] }],
        tests: [
          { skill: 'best', hard: bad, soft: bad, n: bad, passK: { k: 3, passAt1: bad, passAtK: bad, flipRate: bad } },
          { skill: 'initial', hard: 0.1, soft: 0.1, n: bad, passK: evil as unknown as undefined },
          { skill: 'none', hard: 0.1, soft: 0.1, n: 1, passK: { k: bad, passAt1: 0, passAtK: 0, flipRate: 0 } },
        ],
        usage: { rollout: { calls: bad, promptTokens: bad, completionTokens: bad, costUsd: bad } },
        totalCostUsd: bad,
        blame: [{ start: bad, end: bad, source: 'x', detail: 'y' }],
      }),
    );
    expect(html).not.toMatch(/<meta http-equiv="refresh"/i);
    expect(html).not.toMatch(/<form/i);
    expect(html).toContain("form-action 'none'");
    expect(html).toContain("base-uri 'none'");
  });

  it('shows the chart, the accepted edits, the per-item gate table, the lift and the cost by stage', () => {
    const html = renderRunReport(data());
    expect(html).toMatch(/<svg[^>]*aria-label="Validation score by step"/);
    expect((html.match(/class="accept"/g) ?? []).length).toBe(1);
    expect((html.match(/class="reject"/g) ?? []).length).toBe(1);
    expect(html).toContain('<h3>Step 1 (accept new best, 0.500 vs 0.100)</h3>');
    expect(html).not.toContain('<h3>Step 2'); // rejected: not among accepted edits
    expect(html).toContain('<td>1</td><td>accept new best</td><td>0.500</td><td>0.100</td><td>v1, v2</td><td>—</td>');
    expect(html).toContain('<td>2</td><td>reject</td><td>0.400</td><td>0.500</td><td>—</td><td>v7</td>');
    expect(html).toContain('Best vs starting skill: <strong>50.0 points</strong>; vs no skill: <strong>60.0 points</strong> on 40 held-out test items.');
    expect(html).toContain('<td>Select (ranking)</td><td>2</td><td>550</td><td>$0.0200</td>');
    // The settings line comes from the knob table (issue #21): labels as on the Train screen.
    expect(html).toContain('Epochs 2 · Batch size 20 · Edit budget 4 · Gate metric hard · Gate rule Higher mean, no item regresses');
  });

  it('edit blame: says where each run of lines of the best skill came from, escaped', () => {
    const html = renderRunReport(data({ blame: [{ start: 1, end: 1, source: 'Starting skill', detail: '' }, { start: 2, end: 2, source: 'Step 1 (accept new best)', detail: 'append edit — no rule for <x>' }] }));
    expect(html).toContain('<h2>Where each line of the best skill came from</h2>');
    expect(html).toContain('<td>2</td><td>Step 1 (accept new best)</td><td><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></td><td>append edit — no rule for &lt;x&gt;</td>');
    expect(renderRunReport(data())).not.toContain('Where each line');
  });

  it('activation track: both descriptions, escaped, with their shares decided right and each epoch', () => {
    const activation = {
      initialDescription: 'Old <one>',
      description: 'New & better',
      baselineScore: 0.7,
      score: 1,
      epochs: [
        { epoch: 1, action: 'accept', valCurrent: 0.7, valCandidate: 1 },
        { epoch: 2, action: 'no_misfires' },
      ],
      test: { initial: 0.6, best: 0.9, n: 10 },
    };
    const html = renderRunReport(data({ activation }));
    expect(html).toContain('<h2>Activation track: the description</h2>');
    expect(html).toContain('<td>Starting</td><td>Old &lt;one&gt;</td><td>70.0%</td><td>60.0%</td>');
    expect(html).toContain('<td>Kept (exported)</td><td>New &amp; better</td><td>100.0%</td><td>90.0%</td>');
    expect(html).toContain('epoch 1: accept (validation 70.0% → 100.0%) · epoch 2: no misfires');
    expect(renderRunReport(data())).not.toContain('Activation track');
  });

  it('says so when nothing was accepted or tested', () => {
    const html = renderRunReport(data({ gates: [], tests: [], usage: {}, diagnosis: { headline: 'No step was accepted. In 2 steps, …' } }));
    expect(html).toContain('<p>No step was accepted.</p>');
    expect(html).toContain('The test split was not scored.');
    expect(html).toContain('<strong>No step was accepted. In 2 steps, …</strong>');
  });
});

describe('HTML run report under noise (issue #19)', () => {
  const noise = { miss: 0.1, guess: 0.05, flipRate: 0.08, repeatedSamples: 120 };
  it('states each lift with its interval, corrected for the target noise, and each gate verdict with its statistics', () => {
    const html = renderRunReport(
      data({
        gates: [{ step: 1, action: 'accept_new_best', candidate: 0.5, current: 0.1, fixed: ['v1'], broken: [], edits: [], verdict: { pValue: 0.03125, resampled: 3, margin: 2 } }],
        lift: { against: 'initial', measured: 0.42, estimate: 0.51, interval: [0.38, 0.64], level: 0.95, uncertain: false, noise },
        liftOverNone: { against: 'none', measured: 0.02, estimate: 0.03, interval: [-0.05, 0.1], level: 0.95, uncertain: true, noise },
      }),
    );
    expect(html).toContain('Over the starting skill: <strong>+51.0 points</strong>, 95% interval +38.0 points to +64.0 points — a real gain');
    expect(html).toContain('(measured +42.0 points; the target missed about 10% of answers it knew and guessed about 5% of the others, from 120 repeated answers)');
    expect(html).toMatch(/Over no skill: <strong>\+3\.0 points<\/strong>, 95% interval −5\.0 points to \+10\.0 points — <strong>cannot be told from noise<\/strong>/);
    expect(html).toContain('<td>p = 0.031</td><td>3 item(s), 2-vote margin</td>');
  });

  describe('the learning curve', () => {
    const marks: CurveMark[] = [
      { kind: 'baseline', score: 0.1, n: 20, spend: { targetCalls: 24, costUsd: 0.001 } },
      { kind: 'step', step: 1, epoch: 1, action: 'accept_new_best', score: 0.5, n: 20, complete: true, best: 0.5, spend: { targetCalls: 90, costUsd: 0.004 } },
      { kind: 'step', step: 2, epoch: 1, action: 'reject', score: 0.4, n: 12, complete: false, best: 0.5, spend: { targetCalls: 140, costUsd: 0.006 } },
      { kind: 'step', step: 3, epoch: 1, action: 'skip_no_patches', score: null, n: null, complete: null, best: 0.5, spend: { targetCalls: 160, costUsd: 0.007 } },
    ];
    const section = (html: string) => html.slice(html.indexOf('<h2>Learning curve</h2>'), html.indexOf('<h2>Accepted edits</h2>'));

    it('draws every point inline, kept and not, with its interval, and lists them in a table', () => {
      const html = section(renderRunReport(data({ curve: learningCurve(marks) })));
      expect(html).toContain('<svg');
      // Three scored points (a circle and a whisker each), the skip as a tick on the axis.
      expect(html.match(/<circle /g)).toHaveLength(3);
      expect(html.match(/class="whisker"/g)).toHaveLength(3);
      expect(html.match(/class="tick"/g)).toHaveLength(1);
      expect(html.match(/<g class="kept">/g)).toHaveLength(2); // the baseline and step 1
      expect(html).toContain('class="band"');
      expect(html).toContain('Training target calls');
      expect(html.match(/<tr><td>/g)).toHaveLength(4);
      expect(html).toContain('<td>Step 2</td><td>140</td><td>$0.0060</td><td>0.400 (stopped early)</td>');
      expect(html).toContain('best 0.500, reached at 90 calls ($0.0040); 70 calls since then without a better score.');
    });

    it('is left out for a run made before it was recorded', () => {
      expect(renderRunReport(data())).not.toContain('Learning curve');
      expect(renderRunReport(data({ curve: [] }))).not.toContain('Learning curve');
    });

    it('drops points a crafted bundle filled with text, and escapes a crafted label', () => {
      const evil = '<form action="https://evil.example">';
      const good = learningCurve(marks);
      const curve = [
        ...good.slice(0, 2),
        { ...good[2], targetCalls: evil as unknown as number },
        { ...good[3], label: evil },
      ];
      const html = section(renderRunReport(data({ curve })));
      expect(html).not.toMatch(/<form/i);
      expect(html).toContain('&lt;form action=&quot;https://evil.example&quot;&gt;');
      expect(html.match(/<tr><td>/g)).toHaveLength(3);
    });
  });
});
