import { useEffect, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { handOverKeys } from '../../client/keys';
import { runEndpoints, setApp, useApp } from '../../store/app-store';
import { chargedPrices } from '../../core/config/service-tier';
import type { SectionCreditOutput, SectionDropOutput } from '../../worker/api-types';
import { Alert, Card, NumberField } from '../common/Field';
import { ProposedVersion } from './ProposedVersion';
import { dropWhy } from '../../core/verdict/no-worse';
import { creditMarks, points, type CreditMark } from './credit-marks';
import { creditUsd as usd, SectionEffect } from './SectionEffect';

/** What the panel asks the worker with: the skill as edited, the run settings and the chosen dataset. */
function request(datasetId: string) {
  const s = useApp.getState();
  return {
    datasetId,
    skill: s.skill,
    config: s.config,
    endpoints: runEndpoints(s.connection),
    prices: chargedPrices(s.connection.prices, s.connection),
    ...(s.environmentModule ? { environment: { module: s.environmentModule.module } } : {}),
  };
}

/**
 * Which section earns its tokens (issue #43 item 4), on demand: the skill evaluated on validation
 * with random halves of its sections masked, within the calls the person allows; each section's
 * effect is shown here and beside the section in the editor. Sections that harm or show no help
 * may be dropped only as a candidate the gate judges — and then only taken by the person.
 */
export function SectionCreditPanel({ onMarks }: { onMarks: (marks: CreditMark[] | undefined) => void }) {
  const datasetId = useApp((s) => s.datasetId);
  const skill = useApp((s) => s.skill);
  const [budget, setBudget] = useState<number | undefined>(200);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [credit, setCredit] = useState<(SectionCreditOutput & { skill: string }) | null>(null);
  const [chosen, setChosen] = useState<number[]>([]);
  const [drop, setDrop] = useState<SectionDropOutput | null>(null);
  const current = credit?.skill === skill ? credit : null;
  useEffect(() => onMarks(current ? creditMarks(current.report) : undefined), [current, onMarks]);
  if (!datasetId) return null;
  const ask = async <T,>(
    what: string,
    call: () => Promise<({ ok: true } & T) | { ok: false; error: { message: string } }>,
  ) => {
    setBusy(what);
    setError(null);
    try {
      await handOverKeys();
      const r = await call();
      if (r.ok) return r;
      setError(r.error.message);
      return null;
    } finally {
      setBusy(null);
    }
  };
  const run = async () => {
    setDrop(null);
    const at = useApp.getState().skill;
    const r = await ask('Crediting sections…', () =>
      trainer().creditSections({ ...request(datasetId), budget: budget ?? 0 }),
    );
    if (!r) return;
    setCredit({ ...r, skill: at });
    setChosen(r.report.droppable);
  };
  const gate = async () => {
    const r = await ask('The gate is judging the drop…', () =>
      trainer().gateSectionDrop({ ...request(datasetId), sections: chosen }),
    );
    if (r) setDrop(r);
  };
  const use = () => {
    if (!drop?.accepted) return;
    setApp((s) => ({
      skill: drop.candidate,
      skillSource: `${s.skillSource ?? 'the skill'}, sections dropped (gate accepted)`,
    }));
    setDrop(null);
  };
  const r = current?.report;
  return (
    <Card title="Section credit">
      <p className="muted">
        Which section earns its tokens: the skill is evaluated on the validation items with random halves of its
        sections (its headings) masked, within the calls you allow, and each section’s effect on pass^1 is estimated
        with a 95 % interval over items. The text above the first section is always kept.
      </p>
      <div className="row">
        <NumberField label="Call budget" value={budget} min={1} onChange={setBudget} />
        <button type="button" onClick={() => void run()} disabled={busy !== null || !budget}>
          {busy ?? 'Credit sections'}
        </button>
      </div>
      {error && <Alert>{error}</Alert>}
      {credit && !current && <p className="muted">The skill changed since it was credited: credit it again.</p>}
      {current && r && (
        <>
          <p>
            {current.masks} masks on {current.plan.items} validation items: {current.calls} calls of {budget}
            {current.errors ? ` (${current.errors} errored, not scored)` : ''}, ${current.costUsd.toFixed(4)}.
            {r.leftOut ? ` ${r.leftOut} items left out (too few scored masks).` : ''}
          </p>
          <ul className="credit-list" aria-label="Section effects">
            {r.sections.map((s) => (
              <li key={s.index}>
                <SectionEffect s={s} />
              </li>
            ))}
          </ul>
          <p>
            The skill: {Math.round(r.skillTokens)} prompt tokens per task ({usd(r.skillCostUsd)}). With every section
            masked it scores {(r.base * 100).toFixed(1)} %
            {r.liftPerCent !== null && `; its sections add ${points(r.liftPerCent)} points per added cent`}.
          </p>
          {r.droppable.length > 0 && (
            <fieldset className="credit-drop">
              <legend>Drop as a candidate for the gate</legend>
              {r.droppable.map((i) => (
                <label key={i} className="inline">
                  <input
                    type="checkbox"
                    checked={chosen.includes(i)}
                    onChange={(e) =>
                      setChosen((c) => (e.target.checked ? [...c, i].sort((a, b) => a - b) : c.filter((x) => x !== i)))
                    }
                  />
                  {r.sections[i].title}
                </label>
              ))}
              <p className="small muted">
                The skill without them meets the skill as it is on every validation item, through the gate training
                uses. It is taken when it scores better — or when it is no worse (the chance it knows fewer validation
                items at most 1 − the gate confidence) and cheaper: fewer prompt tokens per task.
              </p>
              <button type="button" onClick={() => void gate()} disabled={busy !== null || !chosen.length}>
                Put the drop to the gate
              </button>
            </fieldset>
          )}
        </>
      )}
      {drop && (
        <>
          <p role="status">
            The gate {drop.accepted ? 'accepts' : 'refuses'} the drop: validation {(drop.current * 100).toFixed(1)} % →{' '}
            {(drop.score * 100).toFixed(1)} % ({drop.calls} calls){dropWhy(drop)}
            {drop.accepted ? '.' : '; the skill stays as it is.'}
          </p>
          {drop.accepted && (
            <ProposedVersion original={skill} modified={drop.candidate} onUse={use} onDiscard={() => setDrop(null)} />
          )}
        </>
      )}
    </Card>
  );
}
