/**
 * Skill files in and out (issue #11): plain markdown, an Agent Skills `SKILL.md` (YAML
 * frontmatter with `name` and `description`, then the instructions) and `AGENTS.md`.
 * On import the frontmatter is set aside: only the body is trained, so no edit can touch the
 * package's metadata; on export it is put back in front of the trained body.
 */

export const SKILL_FILE_FORMATS = ['markdown', 'skill_md', 'agents_md'] as const;
export type SkillFileFormat = (typeof SKILL_FILE_FORMATS)[number];

export const SKILL_FILE_FORMAT_LABELS: Record<SkillFileFormat, string> = {
  markdown: 'Markdown (.md)',
  skill_md: 'SKILL.md (Agent Skills)',
  agents_md: 'AGENTS.md',
};

/** The Agent Skills metadata of a skill. */
export interface SkillMeta {
  name: string;
  description: string;
}

export interface ParsedSkillFile {
  /** The instructions: what the target runs with and training edits. */
  body: string;
  /** The frontmatter's fields, when the file had frontmatter. */
  meta: Partial<SkillMeta> & Record<string, string>;
  hasFrontmatter: boolean;
}

/** Agent Skills limits: a name of lowercase letters, digits and hyphens (≤ 64), a description ≤ 1024 characters. */
export const MAX_NAME = 64;
export const MAX_DESCRIPTION = 1024;

/** A plain YAML scalar: unquoted, or single- or double-quoted. */
function yamlScalar(raw: string): string {
  const v = raw.trim();
  if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) {
    try {
      return JSON.parse(v) as string;
    } catch {
      return v.slice(1, -1);
    }
  }
  if (v.startsWith("'") && v.endsWith("'") && v.length >= 2) return v.slice(1, -1).replace(/''/g, "'");
  return v;
}

/** Split a skill file into its frontmatter fields and its body; a file without frontmatter is all body. */
export function parseSkillFile(text: string): ParsedSkillFile {
  const src = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n/g, '\n');
  const m = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(src);
  if (!m) return { body: src, meta: {}, hasFrontmatter: false };
  const meta: Record<string, string> = {};
  let key: string | null = null;
  for (const line of m[1].split('\n')) {
    const field = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (field) {
      key = field[1];
      meta[key] = field[2] === '|' || field[2] === '>' ? '' : yamlScalar(field[2]);
    } else if (key && /^\s+\S/.test(line)) {
      // A folded or literal block continues the previous field.
      meta[key] = meta[key] ? `${meta[key]} ${line.trim()}` : line.trim();
    }
  }
  // One blank line separates frontmatter and body (as formatSkillFile writes it).
  const rest = src.slice(m[0].length);
  return { body: rest.startsWith('\n') ? rest.slice(1) : rest, meta, hasFrontmatter: true };
}

/** A valid Agent Skills name from any text ("My Skill!" → "my-skill"). */
export function skillName(text: string): string {
  const slug = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME)
    .replace(/-+$/, '');
  return slug || 'skill';
}

/** A description from the body when none was given: its first line of prose. */
export function describeBody(body: string): string {
  const line = body
    .split('\n')
    .map((l) =>
      l
        .replace(/^#+\s*/, '')
        .replace(/^[-*]\s+/, '')
        .trim(),
    )
    .find((l) => l.length > 0 && !l.startsWith('<!--'));
  return (line ?? 'Instructions trained with Skillwright.').slice(0, MAX_DESCRIPTION);
}

/** The skill as a file of the chosen format. */
export function formatSkillFile(body: string, format: SkillFileFormat, meta: Partial<SkillMeta> = {}): string {
  const text = body.trimEnd() + '\n';
  if (format === 'markdown') return text;
  if (format === 'agents_md') return /^#\s/.test(text) ? text : `# AGENTS.md\n\n${text}`;
  const name = skillName(meta.name || 'skill');
  const description = (meta.description?.trim() || describeBody(body)).replace(/\s+/g, ' ').slice(0, MAX_DESCRIPTION);
  // Double-quoted YAML is a JSON string: colons and quotes in the description stay safe.
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${text}`;
}

/**
 * A frontmatter block (`---\n…\n---\n`) with its `description` replaced — the activation track's
 * result (issue #23 item 4) — or added after `name`; every other line is kept as it was.
 */
export function withDescription(frontmatter: string, description: string): string {
  const field = `description: ${JSON.stringify(description)}`;
  const m = /^---\n([\s\S]*?)\n?---([ \t]*\n?)$/.exec(frontmatter);
  if (!m) return `---\n${field}\n---\n`;
  const out: string[] = [];
  let inOld = false;
  let placed = false;
  for (const line of m[1] ? m[1].split('\n') : []) {
    // The old value's continuation lines (a folded or literal block) go with it.
    if (inOld && (/^\s+\S/.test(line) || !line.trim())) continue;
    inOld = false;
    if (/^description:/.test(line)) {
      out.push(field);
      inOld = placed = true;
    } else out.push(line);
  }
  if (!placed) {
    const name = out.findIndex((l) => /^name:/.test(l));
    out.splice(name >= 0 ? name + 1 : out.length, 0, field);
  }
  return `---\n${out.join('\n')}\n---${m[2] || '\n'}`;
}

/** The file name a format is saved under. */
export function skillFileName(format: SkillFileFormat, base: string): string {
  return format === 'skill_md' ? 'SKILL.md' : format === 'agents_md' ? 'AGENTS.md' : `${base}-best-skill.md`;
}
