import { lazy, Suspense, useEffect, useState } from 'react';
import { SECTIONS, type SectionId } from './sections';
import { StatusStrip } from './StatusStrip';
import { ConnectScreen } from './connect/ConnectScreen';
import { Alert } from './common/Field';
import { ErrorBoundary } from './common/ErrorBoundary';

// The first screen ships with the page; the others load when first opened.
const DataScreen = lazy(() => import('./data/DataScreen').then((m) => ({ default: m.DataScreen })));
const SkillScreen = lazy(() => import('./skill/SkillScreen').then((m) => ({ default: m.SkillScreen })));
const TrainScreen = lazy(() => import('./train/TrainScreen').then((m) => ({ default: m.TrainScreen })));
const RunsScreen = lazy(() => import('./runs/RunsScreen').then((m) => ({ default: m.RunsScreen })));
import { setApp, useApp } from '../store/app-store';
import { recoverOnStartup } from '../client/run-controller';
import { isDemoEndpoint, leaveDemo } from '../client/demo';
import { refreshHeldKeys } from '../client/keys';
import { startKeepalive } from '../client/run-keepalive';

function sectionFromHash(hash: string): SectionId {
  const id = hash.replace(/^#\/?/, '').split('/')[0];
  return SECTIONS.find((s) => s.id === id)?.id ?? 'connect';
}

export function go(section: string): void {
  window.location.hash = `#/${section}`;
}

/** The application shell: header with the run status, the five sections, the active screen. */
export function App() {
  const [active, setActive] = useState<SectionId>(() => sectionFromHash(window.location.hash));
  const problem = useApp((s) => s.problem);
  const demo = useApp((s) => isDemoEndpoint(s.connection.target.baseURL));
  const parked = useApp((s) => s.parked !== null);

  useEffect(() => {
    const onHash = () => setActive(sectionFromHash(window.location.hash));
    window.addEventListener('hashchange', onHash);
    void recoverOnStartup()
      .then(refreshHeldKeys)
      .catch((e: unknown) =>
        setApp({ problem: `Could not open this browser's storage: ${e instanceof Error ? e.message : String(e)}` }),
      );
    const stopKeepalive = startKeepalive();
    // Ask the browser not to evict runs under storage pressure.
    void navigator.storage?.persist?.().catch(() => undefined);
    return () => {
      window.removeEventListener('hashchange', onHash);
      stopKeepalive();
    };
  }, []);

  return (
    <div className="shell">
      <header className="topbar">
        <div className="brand">
          <img src="./favicon.svg" alt="" width={22} height={22} />
          <span className="brand-name">Skillwright</span>
          <span className="brand-tag">train a skill document, in your browser</span>
        </div>
        <StatusStrip />
      </header>
      <nav className="sidenav" aria-label="Sections">
        <ol>
          {SECTIONS.map((s, i) => (
            <li key={s.id}>
              <a
                href={`#/${s.id}`}
                aria-current={s.id === active ? 'page' : undefined}
                className={s.id === active ? 'active' : undefined}
              >
                <span className="step-no" aria-hidden="true">
                  {i + 1}
                </span>
                {s.label}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <main className="content">
        {!demo && parked && (
          <p className="demo-banner" role="note">
            Your skill, dataset choice and settings from before the demo are set aside.{' '}
            <button type="button" className="link" onClick={leaveDemo}>
              Restore them
            </button>{' '}
            <button type="button" className="link" onClick={() => setApp({ parked: null })}>
              Discard them
            </button>
          </p>
        )}
        {demo && (
          <p className="demo-banner" role="note">
            <strong>Simulation.</strong> A simulated model inside this page is answering — not a real LLM. Connect an
            endpoint to train for real.{' '}
            <button type="button" className="link" onClick={leaveDemo}>
              {parked ? 'Leave the demo and restore my settings' : 'Leave the demo'}
            </button>
          </p>
        )}
        {problem && (
          <Alert>
            {problem}{' '}
            <button type="button" className="link" onClick={() => setApp({ problem: null })}>
              Dismiss
            </button>
          </Alert>
        )}
        {/* A screen that fails to render is a message, and the other screens stay reachable. */}
        <ErrorBoundary key={active} what="This screen" hint="The other screens still work.">
          <Suspense fallback={<p className="muted">Loading…</p>}>
            {active === 'connect' && <ConnectScreen />}
            {active === 'data' && <DataScreen />}
            {active === 'skill' && <SkillScreen />}
            {active === 'train' && <TrainScreen />}
            {active === 'runs' && <RunsScreen go={go} />}
          </Suspense>
        </ErrorBoundary>
      </main>
    </div>
  );
}
