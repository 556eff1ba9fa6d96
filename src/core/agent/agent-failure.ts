/**
 * Why an agent CLI failed, from its own words (issue #42), and which of its lines say so.
 *
 * Fatal kinds stop the run at once — they will not heal by asking again: a refused key or an
 * expired login (OpenAI's `401 Incorrect API key provided.`, Claude Code's `Invalid API key ·
 * Fix external API key`, Gemini's `API key not valid`, Codex's `Please log in again`), a model
 * the endpoint or account does not have, an outdated CLI or a setup the CLI refuses to run in.
 * A rate limit, a server error or a dropped connection is transient: asked again, never scored.
 * Harnesses print notices before their errors (Gemini CLI and Qwen Code: `YOLO mode is enabled`,
 * `Ripgrep is not available`; Codex: `Model metadata … not found. Defaulting to fallback
 * metadata`): those are never read as the error, nor quoted as it.
 */

export type AgentFailureKind = 'auth' | 'not_found' | 'bad_request' | 'transient';

/** Lines every run of some harness prints, whatever happened: never the error. */
const NOTICES = [
  /YOLO mode is enabled/i,
  /Ripgrep is not available/i,
  /Falling back to GrepTool/i,
  /256-color support not detected/i,
  /Approval mode overridden/i,
  /Defaulting to fallback metadata/i,
  /^Reading (additional )?(input|prompt) from stdin/i,
  /^Reconnecting\.\.\./i,
  /^Loaded cached credentials/i,
  /^\s+at /, // a stack frame
  /^\s*[{}]\s*$/,
];

const notice = (line: string) => NOTICES.some((re) => re.test(line));

/** A line that speaks of a failure (an HTTP status, an error word, a login). */
const ERROR_WORDS =
  /error|fail|invalid|incorrect|refused|denied|unauthori[sz]ed|forbidden|expired|log ?in|not found|does not exist|not valid|no longer supported|rate limit|too many requests|overloaded|quota|\b[45]\d\d\b|ECONN|timed? ?out/i;

/** Patterns of each fatal kind, tried in this order; whatever matches none is transient. */
const FATAL: readonly [Exclude<AgentFailureKind, 'transient'>, RegExp][] = [
  [
    'auth',
    new RegExp(
      [
        '\\b401 (unauthori[sz]ed|incorrect|invalid|unauthenticated)',
        '\\(401\\)',
        'status:? 401\\b',
        'incorrect api key',
        'invalid (x-)?api[ -]?key',
        'api key not valid',
        'API_KEY_INVALID',
        'authentication_(failed|error)',
        'unauthori[sz]ed',
        'not logged in',
        'log ?in (again|first|required)',
        'run /login',
        '(login|session|token)( has)? expired',
        'could not be refreshed',
        'no api key',
        'missing api key',
        'credit balance is too low',
        'insufficient_quota',
        'exceeded your current quota',
      ].join('|'),
      'i',
    ),
  ],
  [
    'not_found',
    /model[^\n]*\b(does not exist|not available|no access|not supported)|issue with the selected model|model_not_found|model not found|no access to (the )?model|\b404\b[^\n]{0,40}(model|no route)/i,
  ],
  [
    'bad_request',
    /update (is )?required|please (update|upgrade) (the cli|to)|outdated|no longer supported|unsupported (cli )?version|requires a newer version|not running in a trusted directory|cannot be used with root/i,
  ],
];

/** Terminal colour codes (Gemini CLI colours its errors). */
// eslint-disable-next-line no-control-regex -- the escape character is what is matched
const COLOUR = /\x1b\[[0-9;]*m/g;

/** The lines of an agent's output that say what went wrong (notices and stack frames left out). */
export function errorLines(output: string, max = 3): string {
  const lines = output
    .split('\n')
    .map((l) => l.replace(COLOUR, '').trimEnd())
    .filter((l) => l.trim() && !notice(l));
  const errors = lines.filter((l) => ERROR_WORDS.test(l));
  const chosen = errors.length ? errors.slice(-max) : lines.slice(-max);
  return chosen
    .map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l.trim()))
    .join(' ')
    .slice(0, 600);
}

/** Why an agent CLI failed, from its output: a fatal kind, or transient (asked again). */
export function classifyAgentFailure(output: string): AgentFailureKind {
  const said = output
    .split('\n')
    .filter((l) => !notice(l))
    .join('\n');
  for (const [kind, re] of FATAL) if (re.test(said)) return kind;
  return 'transient';
}
