/**
 * What `train`, `estimate` and `eval` read from the files a person names: the config, the
 * starting skill (a .md file or a package), the dataset (or the package's own evals) and the
 * activation track's trigger queries — validated as the page validates them.
 */
import { dirname, join, resolve } from 'node:path';
import { importDatasetText } from '../core/dataset/dataset-import';
import { formatProblem } from '../core/dataset/dataset-types';
import { validateAgainstSplits } from '../core/config/run-config';
import { PACKAGE_EVALS } from '../core/skill/skill-package';
import { parseTriggerQueries, type TriggerQuery } from '../core/dataset/trigger-queries';
import { ConfigError, parseCliConfig, type CliConfig } from './config';
import { readText, type CliArgs, type CliIo } from './io';
import { readSkillInput, type SkillInput } from './skill-files';
import { readEnvironment } from './environment';
import { datasetRecord } from '../service/datasets';
import { runnerIds } from './host';
import { findWorkspace } from './workspace-copy';

/** The dataset and starting skill a `train`, `estimate` or `eval` names, validated as the page does. */
export function loadInputs(args: CliArgs, io: CliIo) {
  if (!args.config) throw new ConfigError('--config is required.');
  const configPath = resolve(args.config);
  const { config, warnings } = parseCliConfig(readText(configPath, 'config file'), args.config);
  warnings.forEach((w) => io.err(`warning: ${w}`));
  const base = dirname(configPath);
  const skillPath = args.skill ? resolve(args.skill) : config.skill ? resolve(base, config.skill) : null;
  const input: SkillInput = skillPath ? readSkillInput(skillPath) : { skill: '' };
  const dataPath = args.data ? resolve(args.data) : config.data ? resolve(base, config.data) : null;
  // A package's own evals/evals.json is the dataset when none is named.
  const fromPackage = !dataPath && input.evals !== undefined ? join(skillPath!, PACKAGE_EVALS) : null;
  if (!dataPath && !fromPackage)
    throw new ConfigError('No dataset: give --data, "data" in the config, or a skill package with evals/evals.json.');
  const dataName = dataPath ?? fromPackage!;
  const environment = readEnvironment(config, base);
  // Items' workspaces are found in the dataset's folder (issue #42 item 4), checked before anything is spent.
  const workspaceRoot = dirname(dataName);
  const imported = importDatasetText(dataPath ? readText(dataPath, 'dataset') : input.evals!, {
    fileName: dataName,
    workspaceProblem: (path) => {
      const found = findWorkspace(workspaceRoot, path);
      return 'problem' in found ? found.problem : null;
    },
    // An environment module scores the items it is given: they need no expected answer.
    ...(environment.module ? { answersOptional: true } : {}),
    ...(config.split?.ratio ? { ratio: config.split.ratio } : {}),
    ...(config.split?.seed !== undefined ? { splitSeed: config.split.seed } : {}),
  });
  if (!imported.ok) {
    const shown = imported.problems.slice(0, 20).map((p) => `  ${formatProblem(p)}`);
    throw new ConfigError(
      `${dataName} has ${imported.problems.length}${imported.truncated ? '+' : ''} problem(s):\n${shown.join('\n')}`,
    );
  }
  if (fromPackage) io.err(`Dataset: ${fromPackage} (the package's own evals).`);
  const d = imported.dataset;
  const sizes = { train: d.splits.train.length, val: d.splits.val.length, test: d.splits.test.length };
  const problems = validateAgainstSplits(config.run, sizes);
  if (problems.length) throw new ConfigError(problems.map((p) => `run.${p.field}: ${p.message}`).join('; '));
  const dataset = datasetRecord(runnerIds(io), d, {
    name: dataPath ? (dataPath.split('/').pop() ?? 'dataset') : 'evals.json',
    fieldNames: imported.fieldNames,
    tools: environment.tools,
    folder: workspaceRoot,
  });
  return {
    config,
    dataset,
    skill: input.skill,
    input,
    sizes,
    triggers: loadTriggers(config, base, input),
    environment,
    workspaceRoot,
  };
}

/** The activation track's queries (config "triggers", else the package's own), when the track is on. */
function loadTriggers(config: CliConfig, base: string, input: SkillInput): TriggerQuery[] | undefined {
  if (!config.run.activationTrack) return undefined;
  if (!input.shell)
    throw new ConfigError(
      'run.activationTrack trains a SKILL.md description: give a skill package (a folder or .zip holding SKILL.md) as the skill.',
    );
  const path = config.triggers ? resolve(base, config.triggers) : input.triggers?.path;
  if (!path)
    throw new ConfigError(
      'run.activationTrack needs trigger queries: "triggers" in the config, or evals/trigger-evals.json in the package.',
    );
  const parsed = parseTriggerQueries(config.triggers ? readText(path, 'trigger queries') : input.triggers!.text);
  if (!parsed.ok) throw new ConfigError(`${path}: ${parsed.problems.slice(0, 20).join('; ')}`);
  return parsed.queries;
}
