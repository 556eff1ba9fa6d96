import { SkillDiff } from './LazyEditors';

/** A version of the skill proposed to the person: its diff, then use it or discard it — nothing changes unasked. */
export function ProposedVersion(p: { original: string; modified: string; onUse: () => void; onDiscard: () => void }) {
  return (
    <>
      <SkillDiff original={p.original} modified={p.modified} height={240} />
      <div className="row">
        <button type="button" className="primary" onClick={p.onUse}>
          Use this version
        </button>
        <button type="button" className="ghost" onClick={p.onDiscard}>
          Discard
        </button>
      </div>
    </>
  );
}
