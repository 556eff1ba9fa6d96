/** The five sections of the app, in the order of the user's path (DESIGN §1, §9). */
export const SECTIONS = [
  { id: 'connect', label: 'Connect' },
  { id: 'data', label: 'Data' },
  { id: 'skill', label: 'Skill' },
  { id: 'train', label: 'Train' },
  { id: 'runs', label: 'Runs' },
] as const;

export type SectionId = (typeof SECTIONS)[number]['id'];
