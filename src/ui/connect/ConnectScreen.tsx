import { useState } from 'react';
import { startDemo } from '../../client/demo';
import { Alert, Card } from '../common/Field';
import { CallOptions } from './CallOptions';
import { ConnectionTest } from './ConnectionTest';
import { EndpointFields } from './EndpointFields';
import { KeyStorage } from './KeyStorage';
import { ModelCapabilities } from './ModelCapabilities';

/** The zero-key demo: a full training against a model simulated inside the page. */
function DemoRow() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const tryDemo = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const p = await startDemo();
      if (p) setProblem(p);
      else window.location.hash = '#/train';
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <div className="row demo-row">
        <button type="button" onClick={() => void tryDemo()} disabled={busy}>
          {busy ? 'Preparing the demo…' : 'Try without a key'}
        </button>
        <span className="muted">
          Watch a full training on a bundled example, against a simulated model inside this page: no key, no network, no
          cost — and not a real LLM.
        </span>
      </div>
      {problem && <Alert>{problem}</Alert>}
    </>
  );
}

export function ConnectScreen() {
  return (
    <div className="screen">
      <h1>Connect your endpoint</h1>
      <p className="lead">
        The <strong>target</strong> model runs the skill on your tasks; the <strong>optimizer</strong> model reads the
        results and edits the skill. Any OpenAI-compatible endpoint works.
      </p>
      <DemoRow />
      <Card title="Endpoint">
        <EndpointFields />
        <CallOptions />
        <KeyStorage />
        <ConnectionTest />
        <ModelCapabilities />
      </Card>
    </div>
  );
}
