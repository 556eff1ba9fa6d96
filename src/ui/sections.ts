/** The five sections of the app, in the order of the user's path (DESIGN §1, §9). */
export const SECTIONS = [
  {
    id: 'connect',
    label: 'Connect',
    title: 'Connect your endpoint',
    summary:
      'Choose a provider preset or type an OpenAI-compatible base URL, paste your API key, and pick the target model (the one that runs the skill) and the optimizer model (the one that edits it).',
    next: 'Test connection will make one tiny call per role and report its latency, or say exactly what is wrong: key rejected, model unknown, CORS blocked, or endpoint unreachable.',
  },
  {
    id: 'data',
    label: 'Data',
    title: 'Load a dataset',
    summary:
      'Upload a JSON, JSONL or CSV file of tasks with expected answers, or load a bundled example. Fields are mapped automatically and the mapping is editable.',
    next: 'You will see a preview, the train / validation / test split counts, the scorer, and every problem in the file named by row and field. Nothing is stored until the file is valid.',
  },
  {
    id: 'skill',
    label: 'Skill',
    title: 'Write the starting skill',
    summary:
      'The skill is the markdown document the target model runs with. Start from a blank page, an example, or open a .md file.',
    next: 'Training edits it in small, bounded steps. Protected regions written by the optimizer (epoch-level guidance) are highlighted and kept intact.',
  },
  {
    id: 'train',
    label: 'Train',
    title: 'Train the skill',
    summary:
      'Set epochs, batch size, edit budget and its schedule, the gate metric, slow update and meta skill. Each knob comes with its default and a one-line explanation.',
    next: 'Before you start you get a cost estimate in calls and tokens per stage. While it runs: the six-stage pipeline, a live score chart, tokens and cost so far, and pause, resume or cancel at any time.',
  },
  {
    id: 'runs',
    label: 'Runs',
    title: 'Runs and skill versions',
    summary:
      'Every run is kept in this browser: its steps, rollouts, optimizer calls and every skill version.',
    next: 'Inspect any step, compare two skill versions, resume an interrupted run, export the best skill as markdown, or export and import whole runs.',
  },
] as const;

export type SectionId = (typeof SECTIONS)[number]['id'];
