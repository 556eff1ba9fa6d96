import { splitBundle } from '../../core/skill/skill-package';
import { useApp } from '../../store/app-store';

/**
 * The files of a skill package (issue #23): the trained ones (SKILL.md and each reference, whose
 * text the editor shows between its FILE markers) and the ones training never changes.
 */
export function PackageFiles({ skill }: { skill: string }) {
  const shell = useApp((s) => s.skillPackage);
  const { main, files } = splitBundle(skill);
  if (!shell && !files.length) return null;
  const size = (text: string) => `${text.length.toLocaleString()} characters`;
  return (
    <section className="package-files" aria-label="Package files">
      <h3>Package files{shell ? ` — ${shell.name}` : ''}</h3>
      <ul>
        <li>
          <code>SKILL.md</code> <span className="badge accept">trained</span>{' '}
          <span className="muted">{size(main)}</span>
          {shell?.frontmatter && <span className="muted"> · frontmatter kept as it is</span>}
        </li>
        {files.map((f) => (
          <li key={f.path}>
            <code>{f.path}</code> <span className="badge accept">trained</span>{' '}
            <span className="muted">{size(f.text)}</span>
          </li>
        ))}
        {shell?.assets.map((a) => (
          <li key={a.path}>
            <code>{a.path}</code> <span className="badge">kept, read-only</span>{' '}
            <span className="muted">{a.data.length.toLocaleString()} bytes</span>
          </li>
        ))}
      </ul>
      <p className="muted">
        The target and the optimizer read every trained file: SKILL.md first, then each reference between its{' '}
        <code>&lt;!-- FILE: … --&gt;</code> lines. An edit names the file it changes; exporting as a skill package
        writes the same layout back.
      </p>
      {shell?.assetsLeftOut ? (
        <p className="warn" role="note">
          {shell.assetsLeftOut} other file{shell.assetsLeftOut === 1 ? ' was' : 's were'} too large to keep after a
          reload: open the package again to include {shell.assetsLeftOut === 1 ? 'it' : 'them'} in the export.
        </p>
      ) : null}
    </section>
  );
}
