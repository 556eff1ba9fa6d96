/**
 * Opening a skill package on the Skill screen (issue #23): a `.zip` or a folder holding SKILL.md.
 * The skill becomes the package's bundle (SKILL.md's body, then each reference file between its
 * markers); the frontmatter and the untrained files wait in the package shell for the export.
 */
import {
  openPackage,
  packageFromFiles,
  readPackageZip,
  PackageError,
  type SkillPackage,
} from '../../core/skill/package-zip';
import { skillName } from '../../core/skill/skill-file';
import { setApp, type AppState } from '../../store/app-store';
import { parseTriggerQueries, TRIGGER_FILES } from '../../core/dataset/trigger-queries';

/** The package's own trigger queries (evals/trigger-evals.json and the like), when it carries usable ones. */
function triggersOf(pkg: SkillPackage): AppState['triggerQueries'] {
  for (const path of TRIGGER_FILES) {
    const a = pkg.assets.find((x) => x.path === path);
    const r = a ? parseTriggerQueries(new TextDecoder().decode(a.bytes)) : null;
    if (r?.ok) return { queries: r.queries, source: `${pkg.name}/${path}` };
  }
  return null;
}

function show(pkg: SkillPackage, source: string): void {
  const { bundle, meta, shell } = openPackage(pkg);
  const triggers = triggersOf(pkg);
  const kept = pkg.assets.length ? `, ${pkg.assets.length} other kept` : '';
  setApp({
    skill: bundle,
    skillSource: `${source} (package: SKILL.md + ${pkg.references.length} reference${pkg.references.length === 1 ? '' : 's'}${kept})`,
    skillParent: null,
    skillMeta: { name: meta.name ?? skillName(pkg.name), description: meta.description ?? '' },
    skillPackage: shell,
    ...(triggers ? { triggerQueries: triggers } : {}),
    problem: null,
  });
}

function failed(e: unknown): void {
  if (!(e instanceof PackageError)) throw e;
  setApp({ problem: e.message });
}

export async function openPackageZip(file: File): Promise<void> {
  try {
    show(readPackageZip(file.name, new Uint8Array(await file.arrayBuffer())), file.name);
  } catch (e) {
    failed(e);
  }
}

/** A folder picked with a directory input: each file's path is relative to the picked folder. */
export async function openPackageFolder(files: readonly File[]): Promise<void> {
  if (!files.length) return;
  const top = (files[0].webkitRelativePath || files[0].name).split('/')[0];
  try {
    const read = await Promise.all(
      files.map(async (f) => ({ path: f.webkitRelativePath || f.name, bytes: new Uint8Array(await f.arrayBuffer()) })),
    );
    show(packageFromFiles(top, read), `${top}/`);
  } catch (e) {
    failed(e);
  }
}
