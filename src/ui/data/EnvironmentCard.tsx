import { useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { setApp, useApp } from '../../store/app-store';
import { Card } from '../common/Field';

/**
 * Where an agent's tools come from (issue #30): the dataset's own `tools` need nothing here; an
 * environment module — a few lines of JavaScript for a stateful world — is opened here, loaded in
 * a sandbox of its own to check it (issue #39), and kept with the runs made from it.
 */
export function EnvironmentCard() {
  const env = useApp((s) => s.environmentModule);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const open = async (file: File) => {
    setBusy(true);
    setProblem(null);
    try {
      const r = await trainer().inspectModule(await file.text(), file.name);
      if (r.ok) setApp({ environmentModule: { module: r.module, tools: r.tools, scores: r.scores } });
      else setProblem(r.error.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Agent’s tools">
      <p className="muted small">
        A dataset can declare its tools and what each call returns (<code>tools</code> and each item’s{' '}
        <code>tool_results</code>): its rollouts then call them over several turns. For a world with state — files, a
        database, a shop — open an environment module: an ES module whose default export is{' '}
        <code>{'{ name, tools, reset?, call, score? }'}</code>.
      </p>
      <div className="row">
        <label className="file-label">
          <span>{busy ? 'Loading the module…' : 'Open environment module (.mjs, .js)'}</span>
          <input
            type="file"
            aria-label="Open environment module"
            accept=".mjs,.js,text/javascript"
            disabled={busy}
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f) void open(f);
            }}
          />
        </label>
        {env && (
          <button type="button" onClick={() => setApp({ environmentModule: null })}>
            Remove module
          </button>
        )}
      </div>
      {problem && (
        <p role="alert" className="alert">
          {problem}
        </p>
      )}
      {env && (
        <p className="small" aria-label="Environment module">
          <strong>{env.module.name}</strong> ({env.module.fileName}) offers {env.tools.map((t) => t.name).join(', ')}
          {env.scores ? ' and scores each trajectory' : ''}. Runs you start keep it; items need no expected answer.
        </p>
      )}
      <p className="note" role="note">
        A module is code, so it runs in a sandbox of its own: a separate, empty origin with no network. It sees only
        what a run hands it — each item, the agent’s tool calls and, to score, the conversation and answer — and can
        reach none of your keys, stored runs, datasets or settings, nor other tabs or any server. It loads nothing from
        elsewhere: one self-contained file. It still decides what your agent sees and how it is scored: open only
        modules you trust.
      </p>
    </Card>
  );
}
