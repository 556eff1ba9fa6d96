import { useEffect, useState } from 'react';
import { SECTIONS, type SectionId } from './sections';

function sectionFromHash(hash: string): SectionId {
  const id = hash.replace(/^#\/?/, '');
  return SECTIONS.find((s) => s.id === id)?.id ?? 'connect';
}

/** The application shell: a header, the five sections as navigation, and the active section. */
export function App() {
  const [active, setActive] = useState<SectionId>(() => sectionFromHash(window.location.hash));

  useEffect(() => {
    const onHash = () => setActive(sectionFromHash(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const section = SECTIONS.find((s) => s.id === active)!;

  return (
    <div className="shell">
      <header className="topbar">
        <div className="brand">
          <img src="./favicon.svg" alt="" width={22} height={22} />
          <span className="brand-name">Skillwright</span>
          <span className="brand-tag">train a skill document, in your browser</span>
        </div>
        <div className="run-status" role="status" aria-live="polite">
          <span className="dot dot-idle" aria-hidden="true" />
          Idle — no run yet
        </div>
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
                <span className="step-no" aria-hidden="true">{i + 1}</span>
                {s.label}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <main className="content">
        <section aria-labelledby="section-title">
          <h1 id="section-title">{section.title}</h1>
          <p className="lead">{section.summary}</p>
          <div className="empty-state">
            <p>{section.next}</p>
            <p className="muted">This screen is being built; the training core it will drive is in place.</p>
          </div>
        </section>
      </main>
    </div>
  );
}
