import { useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { handOverKeys } from '../../client/keys';
import { runEndpoints, setApp, useApp } from '../../store/app-store';
import { chargedPrices } from '../../core/config/service-tier';
import { Alert, Card, TextField } from '../common/Field';
import { ProposedVersion } from './ProposedVersion';

interface Proposal {
  original: string;
  candidate: string;
  reasoning: string;
  applied: number;
  proposed: number;
}

/**
 * Steering: tell the optimizer what to change, see its edits as a diff, and take them or not.
 * Nothing changes until "Use this version"; the gate is not involved — evaluate or train after.
 */
export function FeedbackPanel() {
  const [feedback, setFeedback] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [proposal, setProposal] = useState<Proposal | null>(null);
  const ask = async () => {
    const s = useApp.getState();
    setBusy(true);
    setError(null);
    setProposal(null);
    try {
      await handOverKeys();
      const r = await trainer().improveWithFeedback({
        skill: s.skill,
        feedback,
        config: s.config,
        endpoints: runEndpoints(s.connection),
        prices: chargedPrices(s.connection.prices, s.connection),
      });
      if (r.ok)
        setProposal({
          original: s.skill,
          candidate: r.candidate,
          reasoning: r.reasoning,
          applied: r.applied,
          proposed: r.proposed,
        });
      else setError(r.error.message);
    } finally {
      setBusy(false);
    }
  };
  const use = () => {
    if (!proposal) return;
    setApp((s) => ({
      skill: proposal.candidate,
      skillSource: `${s.skillSource ?? 'the skill'}, improved with your feedback`,
    }));
    setProposal(null);
    setFeedback('');
  };
  return (
    <Card title="Improve with my feedback">
      <TextField
        label="Your feedback"
        hint="What the skill gets wrong or should do, in your words. The optimizer turns it into a few edits (at most the edit budget) and shows them before anything changes."
        rows={3}
        value={feedback}
        onChange={setFeedback}
      />
      <div className="row">
        <button type="button" onClick={() => void ask()} disabled={busy || !feedback.trim()}>
          {busy ? 'Asking the optimizer…' : 'Improve with my feedback'}
        </button>
      </div>
      {error && <Alert>{error}</Alert>}
      {proposal && (
        <>
          <p>
            {proposal.applied} of {proposal.proposed} proposed edit{proposal.proposed === 1 ? '' : 's'} applied.{' '}
            {proposal.reasoning}
          </p>
          {proposal.candidate === proposal.original ? (
            <p className="muted">
              Nothing to change: the skill already does what the feedback asks, as the optimizer read it.
            </p>
          ) : (
            <ProposedVersion
              original={proposal.original}
              modified={proposal.candidate}
              onUse={use}
              onDiscard={() => setProposal(null)}
            />
          )}
        </>
      )}
    </Card>
  );
}
