/** The bundled example datasets (public/examples), fetched from the page's own origin. */
export interface ExampleInfo {
  id: string;
  name: string;
  description: string;
  file: string;
  skill: string;
  scorer: 'exact' | 'mcq';
  preset: 'qa' | 'mcq';
  /** Split shares suited to the example's size (the paper's 2:1:7 assumes thousands of items). */
  ratio?: [number, number, number];
}

export async function listExamples(): Promise<ExampleInfo[]> {
  const r = await fetch('./examples/index.json');
  return (await r.json()) as ExampleInfo[];
}

export async function loadExample(e: ExampleInfo): Promise<{ data: string; skill: string }> {
  const [data, skill] = await Promise.all([
    fetch(`./examples/${e.file}`).then((r) => r.text()),
    fetch(`./examples/${e.skill}`).then((r) => r.text()),
  ]);
  return { data, skill };
}
